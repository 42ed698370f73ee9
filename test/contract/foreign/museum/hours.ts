// getMuseumHours: the opening hours of each open day from startDate (default today) to 90 days
// after today. Closed on Mondays; late opening on Fridays; shorter hours at weekends.
import type { Incoming, Reply } from '../http-kit.js';
import { isoDate, type Museum } from './context.js';
import { pageOf, readDate } from './paging.js';

const DAY = 86_400_000;
const PUBLISHED_DAYS = 90;
/** No hours are kept before this day: an older startDate starts here. */
const ARCHIVE_START = Date.UTC(2020, 0, 1);

export function getMuseumHours(api: Museum, request: Incoming): Reply {
  const given = readDate(api, request, 'startDate', { lenient: api.on('hours-bad-date-accepted') });
  let start = given === undefined || api.on('hours-start-date-ignored') ? api.today : Date.parse(given);
  if (api.variant.pastStartDate === 'from-today') start = Math.max(start, api.today);
  const days = openDays(Math.max(start, ARCHIVE_START), api.today + PUBLISHED_DAYS * DAY);
  return api.json(
    200,
    pageOf(api, request, 'hours', days).map((day) => dailyHours(api, day)),
  );
}

function openDays(from: number, until: number): number[] {
  const days: number[] = [];
  for (let day = from; day < until; day += DAY) if (new Date(day).getUTCDay() !== 1) days.push(day);
  return days;
}

function dailyHours(api: Museum, day: number): unknown {
  const weekday = new Date(day).getUTCDay();
  const [timeOpen, timeClose] =
    weekday === 5 ? ['09:00', '21:00'] : weekday === 0 || weekday === 6 ? ['10:00', '18:00'] : ['09:00', '18:00'];
  return { date: isoDate(day), timeOpen: api.on('hours-time-12h') ? twelveHour(timeOpen) : timeOpen, timeClose };
}

const twelveHour = (time: string): string => {
  const hour = Number(time.slice(0, 2));
  return `${hour % 12 || 12}:${time.slice(3)} ${hour < 12 ? 'AM' : 'PM'}`;
};
