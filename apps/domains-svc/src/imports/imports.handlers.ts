import type { InternalCaller } from '@platform/auth';
import { XLSX_MEDIA_TYPE, type domainImportRoutes } from '@platform/contracts';
import { fileReply, reply, type Handlers } from '@platform/http';
import type { DomainsContext } from '../context';
import { rememberPartnerName } from '../domains/mail/partner-name';
import { csvTemplate, xlsxTemplate } from './import-template';
import { acceptImport, getImport, listRows } from './imports.service';

/** Domain imports by operationId: accept (or plan) a file, read an import and its rows, download the template. */
export function importHandlers(ctx: DomainsContext): Handlers<(typeof domainImportRoutes)[number], InternalCaller> {
  return {
    createDomainImport: async ({ caller, body }) => {
      // The owner e-mails of the action name the partner: keep its name for the job's creates.
      if (!body.dry_run) await rememberPartnerName(ctx.db, caller);
      const result = await acceptImport(ctx, caller, body);
      return reply(result.dry_run ? 200 : 202, { result });
    },
    getDomainImportTemplate: async ({ query }) =>
      query.format === 'xlsx'
        ? fileReply('domains-import-template.xlsx', XLSX_MEDIA_TYPE, await xlsxTemplate())
        : fileReply('domains-import-template.csv', 'text/csv; charset=utf-8', csvTemplate()),
    getDomainImport: async ({ caller, params }) => ({
      result: await getImport(ctx, caller.partnerId, params.importId),
    }),
    listDomainImportRows: async ({ caller, params, query }) => listRows(ctx, caller.partnerId, params.importId, query),
  };
}
