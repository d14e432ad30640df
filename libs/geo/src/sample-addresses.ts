/**
 * Public addresses the packaged DB-IP database places in known regions (universities' and cloud
 * providers' published ranges), for tests and the bench: sent only as X-Forwarded-For values from
 * loopback, never contacted. libs/geo's tests check each still maps where it says.
 */
export const SAMPLE_ADDRESSES = {
  /** DE, Berlin: GDPR, OPT_IN. */
  berlin: '130.149.7.201',
  /** US, California (Los Angeles): CCPA, OPT_OUT. */
  losAngeles: '128.97.27.37',
  /** US, Texas (Austin): TDPSA, OPT_OUT. */
  texas: '128.83.0.1',
  /** US, Ohio: no state law, NOTICE_ONLY. */
  ohio: '3.12.0.1',
  /** BR, Sao Paulo: LGPD, NOTICE_ONLY. */
  saoPaulo: '18.228.0.1',
  /** JP, Tokyo: APPI, NOTICE_ONLY. */
  tokyo: '13.112.0.1',
} as const;
