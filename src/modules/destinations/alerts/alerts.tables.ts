export type Frequency = 'instant' | 'hourly' | 'daily';

/** A monitor's matches routed to one destination (migration 0025). */
export interface MonitorRoutesTable {
  monitor_id: string;
  destination_id: string;
  account_id: string;
  frequency: Frequency;
  /** A daily digest's time of day, HH:MM, in `time_zone`; null for the others. */
  at: string | null;
  /** An IANA time zone (Europe/Berlin); null for the others. */
  time_zone: string | null;
  /** monitor_matches.seq of the last match handled (bigint: PostgreSQL answers it as a string). */
  cursor_seq: number | string;
  /** A digest's end of window; null for instant routes. */
  next_digest_at: string | null;
  created_at: string;
}

declare module '../../../shared/db/database.ts' {
  interface Tables {
    monitor_routes: MonitorRoutesTable;
  }
}
