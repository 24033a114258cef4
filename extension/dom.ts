// Small helpers the two pages share.

export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from the page`);
  return found as T;
}

/** One message at a time where the eye (and a screen reader, through the live regions) is. */
export function say(kind: 'status' | 'error', text: string): void {
  element('status').textContent = kind === 'status' ? text : '';
  element('error').textContent = kind === 'error' ? text : '';
}
