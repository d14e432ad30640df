import type { DomainsDatabase } from '../db/tables';

/** Installation facts that appear on every domain and event. */
export interface InstanceSettings {
  widgetBaseUrl: string;
  instance: { id: number; name: string; hostname: string; region: string };
  systemSegmentId: number;
  widgetVersion: number;
}

/** What the use cases need: the database (they open transactions on it) and the instance settings. */
export interface DomainsContext {
  db: DomainsDatabase;
  settings: InstanceSettings;
}

/** The calling partner, from the gateway's internal token. */
export interface Caller {
  partnerId: string;
  requiredFields: string[];
}
