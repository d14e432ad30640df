import type { OnboardingPartner, OnboardingWidgets, RequiredField } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { CacheChangeSink } from '../db/cache-changes.listener';
import { ALL_SESSIONS, type GatewayDb } from '../db/tables';

/** A partner as its onboarding widgets need it: who it is, its onboarding settings, its widgets' settings. */
export interface WidgetPartner extends OnboardingPartner {
  widgets: OnboardingWidgets;
}

const MAX_ENTRIES = 10_000;
/** A copy answers this long at most, even while every change is heard (a bound on a missed notice). */
const TTL_MS = 60_000;

/**
 * The partners whose widgets are in use, by id, so a widget's calls read no table: a copy answers
 * only while caching is on (the gateway_sessions LISTEN is up: a partners UPDATE NOTIFYs its id at
 * commit, see migration 2026_11_27_0001), and drops on that notice. Unknown ids are not remembered.
 */
export class WidgetPartners implements CacheChangeSink {
  private readonly entries = new Map<string, { partner: WidgetPartner; until: number }>();
  private caching = false;
  /** Bumped on every notice: a read that raced with one is not kept. */
  private generation = 0;

  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly now: () => number = Date.now,
  ) {}

  setCaching(on: boolean) {
    this.caching = on;
    this.generation++;
    this.entries.clear();
  }

  /** The payload names a session, user or partner (or all): only a partner's copy is kept here. */
  invalidate(id: string) {
    this.generation++;
    if (id === ALL_SESSIONS) this.entries.clear();
    else this.entries.delete(id);
  }

  /** The partner, or undefined when there is none with this id (the caller checked it is a UUID). */
  async find(partnerId: string): Promise<WidgetPartner | undefined> {
    const hit = this.entries.get(partnerId);
    if (hit && hit.until > this.now()) return hit.partner;
    const generation = this.generation;
    const row = await this.db
      .selectFrom('partners')
      .select(['id', 'name', 'required_fields', 'default_product', 'default_price_list', 'onboarding_widgets'])
      .where('id', '=', partnerId)
      .executeTakeFirst();
    if (!row) return undefined;
    const partner: WidgetPartner = {
      id: row.id,
      name: row.name,
      required_fields: row.required_fields as RequiredField[],
      default_product: row.default_product,
      default_price_list: row.default_price_list,
      widgets: row.onboarding_widgets,
    };
    if (this.caching && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(partnerId, { partner, until: this.now() + TTL_MS });
    }
    return partner;
  }
}

/** The partner as domains-svc needs it for a create: no widget settings. */
export const onboardingPartnerOf = ({ widgets: _widgets, ...partner }: WidgetPartner): OnboardingPartner => partner;
