// The venues and performances a Stagedoor deployment starts with: 55 venues (six pages of ten),
// the first with 24 performances (three pages), the others with one to four. Deterministic.
import { uuidFor } from '../http-kit.js';

export interface Venue {
  id: string;
  name: string;
  address: { line1: string; city: string; postal_code: string; country: string };
  capacity: number;
  timezone: string;
  /** The offset its date-times are shown at by the variant that shows local times. */
  utcOffsetHours: number;
}

export interface Performance {
  id: string;
  venueId: string;
  title: string;
  startsAt: number;
  accessible: boolean;
  seatsAvailable: number;
  price: { amount: number; currency: string };
}

const CITIES = [
  { city: 'Lisbon', country: 'PT', timezone: 'Europe/Lisbon', offset: 0, currency: 'EUR' },
  { city: 'Madrid', country: 'ES', timezone: 'Europe/Madrid', offset: 1, currency: 'EUR' },
  { city: 'Lyon', country: 'FR', timezone: 'Europe/Paris', offset: 1, currency: 'EUR' },
  { city: 'Galway', country: 'IE', timezone: 'Europe/Dublin', offset: 0, currency: 'EUR' },
  { city: 'Bergen', country: 'NO', timezone: 'Europe/Oslo', offset: 1, currency: 'NOK' },
  { city: 'Leeds', country: 'GB', timezone: 'Europe/London', offset: 0, currency: 'GBP' },
  { city: 'Kraków', country: 'PL', timezone: 'Europe/Warsaw', offset: 1, currency: 'PLN' },
] as const;
const HALLS = ['Lantern Hall', 'Corn Exchange', 'Old Tram Depot', 'Riverside Stage', 'Glasshouse', 'Opera Annex'];
const SHOWS = [
  'The Quiet Orchestra',
  'Midnight Brass',
  'A Winter Fado',
  'Strings Attached',
  'Low Tide Choir',
  'Paper Moons',
  'The Long Encore',
  'Basement Tapes Live',
];
const FIRST_SHOW = Date.UTC(2031, 2, 1, 19, 30);
const DAY = 86_400_000;

export const VENUE_COUNT = 55;
export const FIRST_VENUE_PERFORMANCES = 24;

export function seedVenues(): Venue[] {
  return Array.from({ length: VENUE_COUNT }, (_, index) => {
    const place = CITIES[index % CITIES.length]!;
    return {
      id: uuidFor(`stagedoor venue ${index}`),
      name: `${HALLS[index % HALLS.length]} ${place.city}${index >= HALLS.length ? ` ${Math.floor(index / HALLS.length) + 1}` : ''}`,
      address: {
        line1: `${((index * 7) % 180) + 1} ${['Harbour Road', 'Rua Nova', 'Market Street', 'Calle Mayor'][index % 4]}`,
        city: place.city,
        postal_code: String(10_000 + index * 97),
        country: place.country,
      },
      capacity: 2000 + ((index * 373) % 4000),
      timezone: place.timezone,
      utcOffsetHours: place.offset,
    };
  });
}

export function seedPerformances(venues: readonly Venue[]): Performance[] {
  return venues.flatMap((venue, venueIndex) => {
    const count = venueIndex === 0 ? FIRST_VENUE_PERFORMANCES : (venueIndex % 4) + 1;
    const currency = CITIES[venueIndex % CITIES.length]!.currency;
    return Array.from({ length: count }, (_, index) => ({
      id: uuidFor(`stagedoor performance ${venueIndex}.${index}`),
      venueId: venue.id,
      title: SHOWS[(venueIndex + index) % SHOWS.length]!,
      startsAt: FIRST_SHOW + index * 2 * DAY + venueIndex * 3_600_000,
      accessible: (venueIndex + index) % 2 === 0,
      seatsAvailable: index % 4 === 3 ? 0 : venue.capacity,
      price: { amount: 1500 + ((venueIndex * 11 + index * 250) % 6000), currency },
    }));
  });
}
