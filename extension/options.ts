import { checkWriteToken } from './corto-api';
import { element, say } from './dom';
import { extensionMessages as m } from './extension-messages';
import { loadSettings, normalizeAddress, saveSettings } from './settings';

// The options page: the instance's address and a write token, saved only once the instance has
// answered that the token opens it and may write.

const form = element<HTMLFormElement>('settings');
const address = element<HTMLInputElement>('address');
const token = element<HTMLInputElement>('token');
const saveButton = element<HTMLButtonElement>('save');

function fieldProblem(input: HTMLInputElement, errorId: string, problem: string): void {
  element(errorId).textContent = problem;
  input.setAttribute('aria-invalid', String(problem !== ''));
}

async function save(): Promise<void> {
  const normalized = normalizeAddress(address.value);
  const secret = token.value.trim();
  fieldProblem(address, 'address-error', 'problem' in normalized ? normalized.problem : '');
  fieldProblem(token, 'token-error', secret === '' ? m.tokenRequired : '');
  if ('problem' in normalized) return address.focus();
  if (secret === '') return token.focus();
  const settings = { address: normalized.address, token: secret };
  address.value = settings.address;
  saveButton.disabled = true;
  say('status', m.checking);
  const checked = await checkWriteToken(settings);
  saveButton.disabled = false;
  if (!checked.ok) return say('error', checked.failure.message);
  await saveSettings(settings);
  say('status', m.saved);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void save();
});

void loadSettings().then((settings) => {
  if (settings) {
    address.value = settings.address;
    token.value = settings.token;
  }
  address.focus();
});
