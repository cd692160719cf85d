import type { FastifyInstance } from 'fastify';
import type { Config } from '../../kernel/config.ts';
import type { Dispatcher } from '../delivery/index.ts';
import type { Provider } from '../delivery/index.ts';
import type { StaffRole } from './staff.ts';
import type { Store } from '../../kernel/journal/store.ts';
import type { Passwords } from './secrets.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import type { StaffAction } from './staff-actions.ts';

/** The signed-in member, as every workspace route sees it (request.staff). */
export interface Staff {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
}

/** What the workspace's pages get (docs/workspace-security.md, "Adding a page"). */
export interface WorkspaceContext {
  config: Config;
  store: Store;
  dispatcher: Dispatcher;
  /** The delivery provider (an erasure also asks it to forget the person: forgetPerson). */
  provider: Provider;
  /** docs/workspace-security.md, "Passwords": scrypt hashing and verification. */
  passwords: Passwords;
  /**
   * docs/workspace-security.md, "Throttling": sign-ins and re-authentications, per key, on every
   * node.
   */
  signInThrottle: SignInThrottle;
  /** The workspace's clock (sessions, invitations, the trail); tests move it. */
  now(): Date;
  /**
   * docs/workspace-security.md, "Audit trail": journals who did what, when, to what. `target` is an
   * id (`lead:<id>`, `staff:<id>`, `person:<reference>`), never an address or a name.
   */
  recordStaffAction(
    staff: Staff | null,
    action: StaffAction,
    target?: string | null,
    detail?: string | null,
  ): Promise<void>;
}

/** The navigation's counts and the page's banner line (workspace-page.ts, WorkspacePageOptions). */
export interface WorkspaceChrome {
  counts?: Readonly<Record<string, number>>;
  notice?: WorkspaceNotice;
}

/** A set of pages: registered inside the workspace scope, under /equipe (workspace-plugin.ts). */
export type WorkspacePages = (
  scope: FastifyInstance,
  context: WorkspaceContext,
) => void | Promise<void>;

/** Per-route settings of the guard (route option `config`). */
export interface WorkspaceRouteConfig {
  /** Answered without a session (sign-in, invitation, the stylesheet). */
  public?: boolean;
  /** Refused to members (403). */
  adminOnly?: boolean;
  /** Reachable while an admin-required second factor is not yet set up (account page, sign-out). */
  beforeSecondFactor?: boolean;
}

/**
 * docs/workspace.md, « Bandeau »: one line atop every page while something needs the team now (a
 * delivery given up), with a link to where it is handled — GOV.UK's « Notification banner », kept to
 * one line so the first lead still fits the first screen of a phone.
 */
export interface WorkspaceNotice {
  text: string;
  href: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session guard on every non-public workspace route (workspace-guard.ts). */
    staff?: Staff;
    /** The session's CSRF token: every form that POSTs carries it as `_csrf`. */
    csrfToken?: string;
    /** What every page of a signed-in member shows around its content (workspace-plugin.ts). */
    workspaceChrome?: WorkspaceChrome;
  }
  interface FastifyContextConfig {
    workspace?: WorkspaceRouteConfig;
  }
}
