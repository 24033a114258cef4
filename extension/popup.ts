import { createLinkSchema } from '@common/links/link-schemas';
import { createLink, fetchQr, type Failure } from './corto-api';
import { currentTab, isShortenable, titleFor } from './current-page';
import { element, say } from './dom';
import { extensionMessages as m } from './extension-messages';
import { loadSettings, type Settings } from './settings';

// The toolbar button's popup: the current page, an optional alias, 'Acortar'; then the short
// address (already copied), a 'Copiar' button and the link's QR.

const form = element<HTMLFormElement>('shorten');
const alias = element<HTMLInputElement>('alias');
const aliasError = element('alias-error');
const shortenButton = element<HTMLButtonElement>('shorten-button');
const shortLink = element<HTMLInputElement>('short-link');
const copyButton = element<HTMLButtonElement>('copy');
const qr = element<HTMLImageElement>('qr');

function showAliasProblems(problems: string[]): void {
  aliasError.textContent = problems.join('. ');
  alias.setAttribute('aria-invalid', String(problems.length > 0));
  if (problems.length > 0) alias.focus();
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    copyButton.textContent = m.copied;
    say('status', m.copiedToClipboard);
  } catch {
    say('error', m.copyFailed);
    shortLink.select();
  }
}

async function showQr(settings: Settings, linkId: number, address: string): Promise<void> {
  const png = await fetchQr(settings, linkId);
  if (!png) return void (element('status').textContent += ` ${m.qrUnavailable}`);
  qr.src = URL.createObjectURL(png);
  qr.alt = m.qrAlt(address);
  qr.hidden = false;
}

function showFailure(failure: Failure): void {
  const { customUrl, ...others } = failure.fields ?? {};
  showAliasProblems(customUrl ?? []);
  // The alias' problems sit under its field; whatever else went wrong is said in the message line.
  const rest = Object.values(others).flat();
  say('error', customUrl && rest.length === 0 ? '' : [failure.message, ...rest.filter((text) => text !== failure.message)].join(' '));
}

async function shorten(settings: Settings, url: string, title: string): Promise<void> {
  const input = { title, longUrl: url, customUrl: alias.value };
  // The same checks as the web app's form and the API, in the same words, before any request.
  const checked = createLinkSchema.safeParse(input);
  if (!checked.success) {
    const aliasProblems = checked.error.issues.filter((issue) => issue.path[0] === 'customUrl').map((issue) => issue.message);
    const others = checked.error.issues.filter((issue) => issue.path[0] !== 'customUrl').map((issue) => issue.message);
    showAliasProblems(aliasProblems);
    say('error', others.join(' '));
    return;
  }
  showAliasProblems([]);
  shortenButton.disabled = true;
  say('status', m.shortening);
  const outcome = await createLink(settings, input);
  shortenButton.disabled = false;
  if (!outcome.ok) return showFailure(outcome.failure);
  form.hidden = true;
  element('result').hidden = false;
  shortLink.value = outcome.value.shortLink;
  copyButton.addEventListener('click', () => void copy(outcome.value.shortLink));
  await copy(outcome.value.shortLink);
  copyButton.focus();
  await showQr(settings, outcome.value.id, outcome.value.shortLink);
}

async function start(): Promise<void> {
  const settings = await loadSettings();
  if (!settings) {
    element('setup-text').textContent = m.notConfigured;
    element('setup').hidden = false;
    element('open-options').addEventListener('click', () => void chrome.runtime.openOptionsPage());
    element('open-options').focus();
    return;
  }
  const tab = await currentTab(location.search);
  const url = tab?.url;
  if (!isShortenable(url)) {
    element('unshortenable-title').textContent = m.notShortenable;
    element('unshortenable-detail').textContent = m.notShortenableDetail;
    element('unshortenable').hidden = false;
    return;
  }
  const title = titleFor(url, tab?.title);
  element('page-title').textContent = title;
  element('page-url').textContent = url;
  form.hidden = false;
  alias.focus();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void shorten(settings, url, title);
  });
}

void start();
