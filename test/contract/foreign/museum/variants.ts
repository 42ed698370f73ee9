// The correct Museum deployments: every one follows the document; they differ where it is silent.

export interface MuseumVariant {
  /** Order of listSpecialEvents: as created, or by earliest date. */
  eventOrder: 'created' | 'earliest-date';
  /** The status of a path id that is not a uuid: 400 and 404 are both documented. */
  malformedIdStatus: 400 | 404;
  /** Undocumented extra fields: `eventName` on event tickets (as the document's example), `status` on errors. */
  extraFields: boolean;
  /** `; charset=utf-8` on JSON responses. */
  charset: boolean;
  /** A client-sent eventId in createSpecialEvent (the schema does not make it read-only): ignored, or kept when unused. */
  clientEventId: 'ignore' | 'keep';
  /** getMuseumHours with a startDate in the past: from that date, or from today (hours are "upcoming"). */
  pastStartDate: 'as-given' | 'from-today';
  /** Side of the ticket QR code image, in pixels. */
  qrPixels: number;
}

export const MUSEUM_VARIANTS: Readonly<Record<string, MuseumVariant>> = {
  reference: {
    eventOrder: 'created',
    malformedIdStatus: 400,
    extraFields: false,
    charset: false,
    clientEventId: 'ignore',
    pastStartDate: 'as-given',
    qrPixels: 29,
  },
  variant: {
    eventOrder: 'earliest-date',
    malformedIdStatus: 404,
    extraFields: true,
    charset: true,
    clientEventId: 'keep',
    pastStartDate: 'from-today',
    qrPixels: 58,
  },
};
