import { isbot } from 'isbot';

// isbot knows these today; listed again so a future isbot release cannot quietly start
// counting link previews (a link pasted in a chat is fetched once per app, not per person).
const linkPreviewFetchers =
  /whatsapp|slackbot|slack-imgproxy|facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|telegrambot|discordbot|linkedinbot|googlebot|google-inspectiontool|bingbot|bingpreview|applebot|skypeuripreview|redditbot|pinterest|embedly|vkshare|viber|snapchat|mastodon|iframely|bitlybot/i;

/** Crawlers and link-preview fetchers: their hits are stored flagged and left out of the counts. */
export function isBotAgent(userAgent: string): boolean {
  return linkPreviewFetchers.test(userAgent) || isbot(userAgent);
}
