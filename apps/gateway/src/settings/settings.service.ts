import type { Kysely } from '@platform/db';
import { inTransaction } from '@platform/db';
import { notFound } from '@platform/http';
import { AuditRepository, type Actor } from '../audit/audit.repository';
import { ApiKeysRepository } from '../db/api-keys.repository';
import type { OnboardingWidgets, PartnerSettings, RequiredField } from '@platform/contracts';
import type { GatewayDb } from '../db/tables';
import type { SessionsChanged } from '../identity/session-cache';

interface SettingsRow {
  id: string;
  name: string;
  default_product: string | null;
  default_price_list: string | null;
  required_fields: string[];
  totp_required: boolean;
  onboarding_widgets: OnboardingWidgets;
}

const settingsView = (p: SettingsRow): PartnerSettings => ({
  id: p.id,
  name: p.name,
  default_product: p.default_product,
  default_price_list: p.default_price_list,
  required_fields: p.required_fields as RequiredField[],
  totp_required: p.totp_required,
  onboarding_widgets: p.onboarding_widgets,
});

const COLUMNS = [
  'id',
  'name',
  'default_product',
  'default_price_list',
  'required_fields',
  'totp_required',
  'onboarding_widgets',
] as const;

export interface SettingsChange {
  name?: string;
  default_product?: string | null;
  default_price_list?: string | null;
  required_fields?: RequiredField[];
  totp_required?: boolean;
  onboarding_widgets?: OnboardingWidgets;
}

/** The partner's settings, as its administrators change them in the portal (operators: `partner update`). */
export class SettingsService {
  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly now: () => number = Date.now,
    /** Sessions carry the partner's settings too: this gateway drops its copies at commit (see IdentityService). */
    private readonly sessionsChanged: SessionsChanged = async () => undefined,
  ) {}

  async get(partnerId: string) {
    const row = await this.db.selectFrom('partners').select(COLUMNS).where('id', '=', partnerId).executeTakeFirst();
    if (!row) throw notFound('partner');
    return settingsView(row);
  }

  /** Keys and sessions carry the partner's settings: every gateway reloads them at commit. */
  async update(partnerId: string, actor: Actor, change: SettingsChange) {
    return inTransaction(this.db, async (trx) => {
      const before = await trx
        .selectFrom('partners')
        .select(COLUMNS)
        .where('id', '=', partnerId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound('partner');
      const { onboarding_widgets: widgets, ...plain } = change;
      const values = {
        ...plain,
        ...(change.required_fields ? { required_fields: [...new Set(change.required_fields)] } : {}),
        ...(widgets ? { onboarding_widgets: JSON.stringify(widgets) } : {}),
      };
      const row = await trx
        .updateTable('partners')
        .set(values)
        .where('id', '=', partnerId)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      await new ApiKeysRepository(trx).notifyPartnerChanged(partnerId);
      await this.sessionsChanged(trx, partnerId);
      const changes = Object.fromEntries(
        Object.keys(values).map((k) => [k, { from: before[k as keyof SettingsRow], to: row[k as keyof SettingsRow] }]),
      );
      await new AuditRepository(trx).record({
        partnerId,
        kind: 'settings.updated',
        actor,
        target: { type: 'partner', id: partnerId },
        details: { changes },
        at: new Date(this.now()),
      });
      return settingsView(row);
    });
  }
}
