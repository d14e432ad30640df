import type { InternalCaller } from '@platform/auth';
import type { consentFigurePublicRoutes } from '@platform/contracts';
import { reply, type Handlers } from '@platform/http';
import type { ConsentContext } from '../domain/context';
import { widgetProperty } from '../domain/receipts.service';
import { countNoticeView } from './counters.repository';

/** The widget's notice-view beacon: the chassis has checked the Origin; only the day's counter is raised. */
export function noticeViewHandlers(
  ctx: Pick<ConsentContext, 'db' | 'properties'>,
): Handlers<(typeof consentFigurePublicRoutes)[number], InternalCaller> {
  return {
    createNoticeView: async ({ params }) => {
      await countNoticeView(ctx.db, await widgetProperty(ctx.properties, params.propertyId));
      return reply(202, { result: {} });
    },
  };
}
