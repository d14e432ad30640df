import type { DomainStatus } from '@platform/contracts';
import { AppError } from '@platform/http';

/**
 * Every move of a domain's status, with the statuses it may start from: the one place the status
 * machine is written down. Use cases check a move with it and repositories take their allowed-from
 * lists (the WHERE of a conditional UPDATE) from it. A domain starts NEW (every create).
 */
export const STATUS_MOVES = {
  /** The partner's invite: the owner gets the invitation (again, from INVITED). */
  invite: { from: ['NEW', 'SCANNED', 'INVITED', 'INACTIVE'], to: 'INVITED' },
  /** A SCAN_INVITE create's invite once its scan ended (even a failed one); a domain invited or ACTIVE by then is left as it is. */
  inviteAfterScan: { from: ['NEW', 'SCANNED'], to: 'INVITED' },
  /** A completed scan: only from NEW, so a later status never moves back. */
  scanned: { from: ['NEW'], to: 'SCANNED' },
  /** The widget's first page view; INACTIVE stays, only the partner reactivates it. */
  firstView: { from: ['NEW', 'SCANNED', 'INVITED'], to: 'ACTIVE' },
  deactivate: { from: ['ACTIVE'], to: 'INACTIVE' },
  activate: { from: ['INACTIVE'], to: 'ACTIVE' },
} as const satisfies Record<string, { from: readonly DomainStatus[]; to: DomainStatus }>;

export type StatusMove = keyof typeof STATUS_MOVES;

/** The moves a partner asks for by route; the others happen to the domain (a scan, a page view). */
export type PartnerMove = Extract<StatusMove, 'invite' | 'deactivate' | 'activate'>;

/** Whether a domain in this status may make the move. */
export const canMove = (move: StatusMove, status: string): boolean =>
  (STATUS_MOVES[move].from as readonly string[]).includes(status);

/** The status after a partner's move, or 409 DOMAIN.INVALID_STATE when the current status does not allow it. */
export function nextStatus(current: string, move: PartnerMove): DomainStatus {
  if (!canMove(move, current)) {
    throw new AppError('DOMAIN.INVALID_STATE', `A domain in status ${current} cannot be ${move}d.`, {
      status: current,
      allowed_from: STATUS_MOVES[move].from,
    });
  }
  return STATUS_MOVES[move].to;
}

/** is_active mirrors the status: only INACTIVE domains are inactive. */
export const isActiveStatus = (status: string) => status !== 'INACTIVE';
