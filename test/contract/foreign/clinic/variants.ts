// The correct Clinic deployments: every one follows the document; they differ where it is silent.

export interface ClinicVariant {
  /** Salt of the deterministic patient uuids: two deployments never share one. */
  idSalt: string;
  /** The id of the first seeded appointment (the others follow). */
  firstAppointmentId: number;
  /** Patients and appointments seeded at start. */
  seededPatients: number;
  seededAppointments: number;
  /** Links as absolute URL strings (null prev/next), or link objects with path-absolute hrefs (prev/next left out). */
  links: 'absolute-strings' | 'path-objects';
  /** How date-times are written: `Z` in whole seconds, or a +02:00 offset with milliseconds. */
  dateTimes: 'utc' | 'offset';
  /** Undocumented members added to every list's `meta`. */
  extraMeta: Record<string, unknown>;
  /** Whether documents carry the top-level `jsonapi` member. */
  jsonapiMember: boolean;
  /** How error titles and details are worded. */
  messages: 'plain' | 'terse';
}

export const CLINIC_VARIANTS: Readonly<Record<string, ClinicVariant>> = {
  reference: {
    idSalt: 'clinic',
    firstAppointmentId: 1,
    seededPatients: 25,
    seededAppointments: 30,
    links: 'absolute-strings',
    dateTimes: 'utc',
    extraMeta: {},
    jsonapiMember: true,
    messages: 'plain',
  },
  variant: {
    idSalt: 'clinic variant',
    firstAppointmentId: 7001,
    seededPatients: 33,
    seededAppointments: 45,
    links: 'path-objects',
    dateTimes: 'offset',
    extraMeta: { generated_by: 'harbour-api 5.2', page: { cached: false } },
    jsonapiMember: false,
    messages: 'terse',
  },
};
