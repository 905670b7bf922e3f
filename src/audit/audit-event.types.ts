import { userInfo } from 'node:os';

/** Who did it (contract section 9): a signed-in person, a device, the command line, or the service. */
export type AuditActorType = 'user' | 'device' | 'cli' | 'system';

export interface AuditActor {
  type: AuditActorType;
  /** The account or device id; the operating-system user for `cli`; null for `system`. */
  id: string | null;
  /** The actor's organization, so an admin of it finds the event; null for `cli` and `system`. */
  orgId: string | null;
}

/** What it was done to: a subscription, a device, an account, a webhook endpoint, a key. */
export interface AuditSubject {
  type: string;
  id: string;
  /** The organization the subject belongs to (the fulfilment org for subscriptions). */
  orgId: string | null;
}

/** Ids, counts, reasons and hashes only: never personal data (contract section 9). */
export type AuditDetails = Record<string, string | number | boolean | null | string[]>;

export interface NewAuditEvent {
  action: string;
  actor: AuditActor;
  subject?: AuditSubject;
  details?: AuditDetails;
}

/** The command line's actor: `cli`, named by the operating-system user who ran it. */
export function cliActor(): AuditActor {
  let name = 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // A uid with no passwd entry (some containers): the event still says it came from the CLI.
  }
  return { type: 'cli', id: name, orgId: null };
}

/** The service's own passes (retention, reconcile). */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, orgId: null };

/** A signed-in person as the actor of what they do. */
export const userActor = (user: { id: string; orgId: string }): AuditActor => ({
  type: 'user',
  id: user.id,
  orgId: user.orgId,
});
