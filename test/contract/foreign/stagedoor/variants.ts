// The correct Stagedoor deployments: every one follows the document; they differ where it is silent.

export interface StagedoorVariant {
  /** Order of listVenues: as seeded, or by name. */
  venueOrder: 'seeded' | 'by-name';
  /** Order of searchPerformances: soonest first, or latest first. */
  performanceOrder: 'soonest-first' | 'latest-first';
  /** Page size when `limit` is absent (the document: at most 50). */
  defaultLimit: number;
  /** Page links as absolute URLs (true) or absolute paths (false). */
  absoluteLinks: boolean;
  /** A `Link` header (RFC 8288) with rel next and prev, besides the body's links. */
  linkHeader: boolean;
  /** A page without a next or prev: the link is null, or absent. */
  missingLink: 'null' | 'absent';
  /** The status of a body field of the wrong type or out of range: both are documented. */
  invalidFieldStatus: 400 | 422;
  /** The status of a path id that is not a uuid: 400 (documented as malformed) or 404 (nothing has this id). */
  malformedIdStatus: 400 | 404;
  /** Date-times in UTC (`Z`, whole seconds) or at the venue's offset with milliseconds. */
  dateTimes: 'utc' | 'offset';
  /** Undocumented extra fields: `meta` on pages, `_links` on items, `currency` on payments. */
  extraFields: boolean;
  /** `; charset=utf-8` on JSON responses. */
  charset: boolean;
}

export const REFERENCE_VARIANT: StagedoorVariant = {
  venueOrder: 'seeded',
  performanceOrder: 'soonest-first',
  defaultLimit: 10,
  absoluteLinks: false,
  linkHeader: false,
  missingLink: 'null',
  invalidFieldStatus: 400,
  malformedIdStatus: 400,
  dateTimes: 'utc',
  extraFields: false,
  charset: false,
};

/** The correct deployments by name; `reference` is the one faults are built on and scored against. */
export const STAGEDOOR_VARIANTS: Readonly<Record<string, StagedoorVariant>> = {
  reference: REFERENCE_VARIANT,
  variant: {
    venueOrder: 'by-name',
    performanceOrder: 'latest-first',
    defaultLimit: 25,
    absoluteLinks: true,
    linkHeader: true,
    missingLink: 'absent',
    invalidFieldStatus: 422,
    malformedIdStatus: 404,
    dateTimes: 'offset',
    extraFields: true,
    charset: true,
  },
};
