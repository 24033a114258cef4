import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_TIMEOUT_MS, webhookMessages as m } from '@common/webhooks/webhook-messages';
import { Webhook } from 'standardwebhooks';
import { type DeliveryAgents, PRIVATE_ADDRESS } from './safe-agent';

// One HTTP attempt of one delivery, signed as Standard Webhooks says. Nothing the receiver does
// can hold more than a few KB of memory or more than WEBHOOK_TIMEOUT_MS: its answer is read up to
// RESPONSE_READ_MAX and the rest dropped with the connection, redirects are not followed.

const RESPONSE_READ_MAX = 4096;

export interface DeliveryAttempt {
  ok: boolean;
  /** The receiver's status; null when none came (timeout, refused, private address). */
  status: number | null;
  durationMs: number;
  /** Why it failed, in Spanish; null on success. */
  error: string | null;
}

export interface OutgoingDelivery {
  url: string;
  secret: string;
  /** webhook-id: the same on every attempt of the delivery, so a receiver can drop repeats. */
  messageId: string;
  payload: string;
}

/** The webhook-id of a delivery row. */
export const messageIdOf = (deliveryId: number) => `msg_${deliveryId}`;

export function signedHeaders(secret: string, messageId: string, payload: string, now = new Date()): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, now, payload),
  };
}

/** `signal`: the dispatcher stopping; an attempt it aborts is not one the receiver failed. */
export function attemptDelivery(agents: DeliveryAgents, delivery: OutgoingDelivery, signal?: AbortSignal): Promise<DeliveryAttempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (status: number | null, error: string): DeliveryAttempt => ({ ok: false, status, durationMs: elapsed(), error });
  const url = new URL(delivery.url);
  if (!agents.hostAllowed(url.hostname)) return Promise.resolve(failed(null, m.deliveryPrivate));
  const body = Buffer.from(delivery.payload);
  const secure = url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const settle = (attempt: DeliveryAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const request = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      ...(signal ? { signal } : {}),
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': 'Corto-Webhooks/1',
        ...signedHeaders(delivery.secret, delivery.messageId, delivery.payload),
      },
    });
    // One deadline for connecting, sending and the answer's head and first bytes.
    const timer = setTimeout(() => {
      request.destroy();
      settle(failed(null, m.deliveryTimeout));
    }, WEBHOOK_TIMEOUT_MS);
    request.on('error', (error: NodeJS.ErrnoException) => {
      settle(failed(null, error.code === PRIVATE_ADDRESS ? m.deliveryPrivate : m.deliveryUnreachable));
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const outcome: DeliveryAttempt =
        status >= 200 && status < 300
          ? { ok: true, status, durationMs: elapsed(), error: null }
          : failed(status, status >= 300 && status < 400 ? m.deliveryRedirect : m.deliveryStatus(status));
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        // More than a short answer: the rest is not wanted, and neither is the connection.
        if (read > RESPONSE_READ_MAX) {
          response.destroy();
          settle(outcome);
        }
      });
      response.on('end', () => settle(outcome));
      response.on('error', () => settle(outcome));
      response.on('close', () => settle(outcome));
    });
    request.end(body);
  });
}
