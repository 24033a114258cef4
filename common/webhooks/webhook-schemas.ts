import { z } from 'zod';
import '../zod-setup';
import {
  WEBHOOK_LINKS_MAX,
  WEBHOOK_URL_MAX,
  webhookMessages as m,
} from './webhook-messages';

// One schema each for the webhook routes, the web app's forms, the client's types, the OpenAPI
// document and the live feed (docs/webhooks.md has the contract). The receiver URL's syntax is
// checked here; whether its address is private is the server's to check, where it connects.

export const webhookEvents = ['link.clicked', 'link.created', 'link.updated', 'link.deleted'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];
/** What a delivery announces: one of the events, or the test button's ping. */
export type DeliveryEvent = WebhookEvent | 'ping';

/** Ports a receiver may listen on: the standard ones, or any unprivileged one. */
const portAllowed = (port: string) => port === '' || port === '80' || port === '443' || Number(port) >= 1024;

export const webhookUrlSchema = z
  .string({ error: m.urlRequired })
  .trim()
  .min(1, { error: m.urlRequired })
  .max(WEBHOOK_URL_MAX, { error: m.urlTooLong })
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: m.urlInvalid });
      return z.NEVER;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: m.urlScheme });
    else if (url.username || url.password) ctx.addIssue({ code: 'custom', message: m.urlCredentials });
    else if (!portAllowed(url.port)) ctx.addIssue({ code: 'custom', message: m.urlPort });
    else return url.href;
    return z.NEVER;
  });

export const webhookEventsSchema = z
  .array(z.enum(webhookEvents, { error: m.eventUnknown }), { error: m.eventsRequired })
  .min(1, { error: m.eventsRequired })
  .transform((events) => [...new Set(events)]);

/** Only these links' events (ids in the workspace); absent or empty: every link. */
export const webhookLinksSchema = z
  .array(z.number().int().positive(), { error: m.linkNotInWorkspace })
  .max(WEBHOOK_LINKS_MAX, { error: m.linksTooMany })
  .transform((ids) => [...new Set(ids)]);

export const createWebhookSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  links: webhookLinksSchema.optional(),
});
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

export const updateWebhookSchema = z.strictObject({
  url: webhookUrlSchema.optional(),
  events: webhookEventsSchema.optional(),
  links: webhookLinksSchema.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookInput = z.input<typeof updateWebhookSchema>;

export const webhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.enum(webhookEvents)),
    /** Ids of the links whose events it receives; empty: every link of the workspace. */
    links: z.array(z.number().int()),
    enabled: z.boolean(),
    /** Why it was disabled by Corto (20 failures in a row), or null. */
    disabledReason: z.string().nullable(),
    /** Failed deliveries in a row (0 after a success). */
    failuresInARow: z.number().int(),
    /** ISO 8601. */
    createdAt: z.string(),
  })
  .meta({
    examples: [
      {
        id: 4,
        url: 'https://crm.empresa.es/corto',
        events: ['link.clicked', 'link.created'],
        links: [],
        enabled: true,
        disabledReason: null,
        failuresInARow: 0,
        createdAt: '2026-11-26T10:00:00.000Z',
      },
    ],
  });
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookResponseSchema = z.object({ webhook: webhookSchema });
/** The secret (`whsec_...`) is in this answer only. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const deliverySchema = z.object({
  id: z.number().int(),
  event: z.enum([...webhookEvents, 'ping']),
  /** pending: waiting for its (next) attempt; delivered: a 2xx came back; failed: no attempt is left. */
  status: z.enum(deliveryStatuses),
  /** The receiver's HTTP status of the last attempt; null if none answered (timeout, refused). */
  responseStatus: z.number().int().nullable(),
  /** How long the last attempt took; null before the first. */
  durationMs: z.number().int().nullable(),
  attempts: z.number().int(),
  /** ISO 8601, or null when no attempt is planned. */
  nextAttemptAt: z.string().nullable(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** Why the last attempt failed, in Spanish (timeout, refused, private address, status), or null. */
  error: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveryResponseSchema = z.object({ delivery: deliverySchema });
export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) });

/** A click as webhooks and the live feed announce it: never an IP. */
export const clickEventDataSchema = z.object({
  linkId: z.number().int(),
  shortLink: z.string(),
  /** ISO 8601. */
  clickedAt: z.string(),
  /** Where the visitor was sent. */
  destination: z.string(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  device: z.string(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  /** The referring site's domain, or null. */
  referrer: z.string().nullable(),
  bot: z.boolean(),
  qr: z.boolean(),
});
export type ClickEventData = z.infer<typeof clickEventDataSchema>;

/** Every delivery's body (Standard Webhooks): `data` is a click, a link (as the API returns it), or `{}` for ping. */
export const webhookPayloadSchema = z.object({
  type: z.enum([...webhookEvents, 'ping']),
  /** ISO 8601: when the event happened. */
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
