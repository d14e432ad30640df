import { matchRoute, type CompiledRoute, type RouteSpec } from '@platform/contracts';
import type { Logger } from '@platform/observability';
import type { Actor, AuditRepository } from './audit.repository';

/**
 * Records the audit event of a forwarded route that names one (spec.audit) once its service
 * answered 2xx. The target is the path's last id (e.g. the domain of DELETE /portal/domains/{id});
 * a create has none. Written off the answer's path: a failure is logged, the answer stands.
 */
export function forwardedAudit(routes: CompiledRoute[], audit: AuditRepository, logger: Logger, now: () => number) {
  return (spec: RouteSpec, method: string, path: string, status: number, partnerId: string, actor: Actor) => {
    if (!spec.audit || status < 200 || status >= 300) return;
    const found = matchRoute(routes, method, path);
    const params = found.kind === 'match' ? found.params : {};
    const names = Object.keys(params);
    const last = names[names.length - 1];
    void audit
      .record({
        partnerId,
        kind: spec.audit,
        actor,
        ...(last ? { target: { type: spec.audit.split('.')[0], id: params[last] } } : {}),
        details: { operation: spec.operationId },
        at: new Date(now()),
      })
      .catch((err: unknown) => logger.error({ err, operation: spec.operationId }, 'audit event not recorded'));
  };
}
