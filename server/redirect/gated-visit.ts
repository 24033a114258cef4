import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LimiterFactory } from '../rate-limits/shared-limiter';
import type { Database } from '../db/database';
import { clientKey } from '../http/client-key';
import { verifyPassword } from '../auth/passwords';
import { type ClickLimits, isHumanVisit, passwordHashOf } from './click-limit';
import type { CachedLink, LinkGate } from './link-cache';
import { createMissThrottle } from './miss-throttle';
import type { RedirectAnswer } from './redirect-answer';
import { siteOrigin } from './site-gate';
import {
  sendDisabledPage,
  sendExpiredPage,
  sendForeignFormPage,
  sendPasswordPage,
  sendPausedPage,
  sendTooManyTriesPage,
} from './visitor-pages';

// Wrong passwords allowed per client (clientKey) and link, within the window from the first.
const PASSWORD_TRIES = 5;
const PASSWORD_WINDOW_MS = 15 * 60 * 1000;

export interface GatedVisitOptions {
  db: Database;
  limits: ClickLimits;
  answer: RedirectAnswer;
  /** PUBLIC_BASE_URL's origin: the password form is only taken from our own pages. */
  publicOrigin: string;
  /** Wrong passwords counted across instances too when the limits are shared (Redis). */
  limiters?: LimiterFactory;
}

/** A link that passes straight through: no gate, or only a date not reached yet. The fast path's test too. */
export function isOpen(link: CachedLink, now: number): boolean {
  return link.gate === undefined || (link.gate.dateOnly && now < link.gate.expiresAt);
}

const isHuman = (request: FastifyRequest) => isHumanVisit(request.method, request.headers['user-agent']);

/**
 * The visitor's side of a link with state, in the contract's order: paused (404), expired by date
 * or clicks (410), password (the form), otherwise the redirect. Plain links never come here.
 */
export function createGatedVisits({ db, limits, answer, publicOrigin, limiters }: GatedVisitOptions) {
  const wrongPasswords = createMissThrottle({
    limit: PASSWORD_TRIES,
    windowMs: PASSWORD_WINDOW_MS,
    shared: limiters?.shared ? limiters.create({ name: 'link-password', points: PASSWORD_TRIES, durationSeconds: PASSWORD_WINDOW_MS / 1000 }) : undefined,
  });

  const redirect = (request: FastifyRequest, reply: FastifyReply, link: CachedLink, countClick: boolean, limited = false) => {
    reply.hijack();
    answer(request.raw, reply.raw, link, countClick, limited);
  };

  /**
   * The short address the visitor asked for, as the report form takes it (no query string), and
   * where that form is: this host ('') on the instance, the instance on a custom domain (which
   * serves no app). Every other link on the pages is relative, so it stays on the domain.
   */
  const placeOf = (request: FastifyRequest): [address: string, reportOrigin: string] => {
    const path = request.url.replace(/[?#].*$/, '');
    return request.site ? [`${siteOrigin(request.site)}${path}`, publicOrigin] : [`${publicOrigin}${path}`, ''];
  };

  /** Paused or past its date: the page to answer, or undefined to go on. */
  const closed = (request: FastifyRequest, reply: FastifyReply, gate: LinkGate) => {
    const place = placeOf(request);
    if (gate.disabled) return sendDisabledPage(reply, ...place);
    if (gate.paused) return sendPausedPage(reply, ...place);
    if (Date.now() >= gate.expiresAt) return sendExpiredPage(reply, ...place);
    return undefined;
  };

  return {
    /** GET or HEAD. */
    async visit(request: FastifyRequest, reply: FastifyReply, link: CachedLink, gate: LinkGate) {
      const stop = closed(request, reply, gate);
      if (stop) return stop;
      if (gate.maxClicks !== null) {
        if (!gate.hasPassword && isHuman(request)) {
          // The place is taken here, so exactly max_clicks people get through.
          if (!(await limits.take(link.id))) return sendExpiredPage(reply, ...placeOf(request));
          return redirect(request, reply, link, true, limits.countsWithClicks);
        }
        if (await limits.isReached(link.id)) return sendExpiredPage(reply, ...placeOf(request));
      }
      if (gate.hasPassword) return sendPasswordPage(reply, false, ...placeOf(request));
      return redirect(request, reply, link, request.method === 'GET');
    },

    /** POST of the password form. */
    async unlock(request: FastifyRequest, reply: FastifyReply, link: CachedLink, gate: LinkGate, address: string) {
      // Another site's page could make its visitors' browsers guess for it, each from an address
      // of its own, past the per-client limit: only our own page (or no browser at all) may post.
      // On a custom domain, its own origin is the page's.
      const origin = request.headers.origin;
      const ours =
        origin === undefined ||
        origin === publicOrigin ||
        origin === `${request.protocol}://${request.host}` ||
        (request.site !== null && origin === siteOrigin(request.site));
      if (!ours) {
        return sendForeignFormPage(reply);
      }
      const stop = closed(request, reply, gate);
      if (stop) return stop;
      if (gate.maxClicks !== null && (await limits.isReached(link.id))) return sendExpiredPage(reply, ...placeOf(request));
      const hash = gate.hasPassword ? await passwordHashOf(db, link.id) : null;
      // No password to give (any more): the visitor is sent to the address itself.
      if (!hash) return reply.status(303).header('cache-control', 'no-store').redirect(`/${encodeURIComponent(address)}`, 303);
      // A crawler or a preview never unlocks: it gets the form, as with a GET.
      if (!isHuman(request)) return sendPasswordPage(reply, false, ...placeOf(request));

      const client = `${clientKey(request.ip)}|${link.id}`;
      const wait = wrongPasswords.waitOf(client);
      if (wait > 0) return sendTooManyTriesPage(reply, wait, ...placeOf(request));
      // The form's body; anything else (JSON, nothing) carries no password.
      const password = request.body instanceof URLSearchParams ? (request.body.get('password') ?? '') : '';
      if (password === '' || !(await verifyPassword(hash, password))) {
        await wrongPasswords.miss(client);
        return sendPasswordPage(reply, true, ...placeOf(request));
      }
      const limited = gate.maxClicks !== null;
      if (limited && !(await limits.take(link.id))) return sendExpiredPage(reply, ...placeOf(request));
      // The click is recorded now that the visitor goes through, and only now.
      return redirect(request, reply, link, true, limited && limits.countsWithClicks);
    },
  };
}

export type GatedVisits = ReturnType<typeof createGatedVisits>;
