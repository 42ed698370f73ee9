// Kept apart from sunset.ts so that MockConfig's types name nothing from Koa (see running-mock.ts).

/** What a deprecated operation answers once "now" is past its `x-sunset`: 410 Gone, or as before. */
export type AfterSunset = 'gone' | 'keep';

/** The values `--after-sunset` takes. */
export const AFTER_SUNSET: readonly AfterSunset[] = ['gone', 'keep'];
