import { DEFAULT_TIME_ZONE } from './business-time.ts';

/**
 * The business's time zone and clock, one per process: numbering periods,
 * "$NOW" dates and document dates follow it. Tests move `now` to a chosen
 * moment (midnight on New Year's Eve) instead of faking the whole Date.
 */
export const businessClock = {
  timeZone: DEFAULT_TIME_ZONE,
  now: (): Date => new Date(),
};
