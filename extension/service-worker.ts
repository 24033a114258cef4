// The extension's background worker. Shortening happens in the popup; on a first install the
// options page opens, since nothing works before an address and a token are given.
chrome.runtime.onInstalled.addListener(({ reason }) => {
  if (reason === 'install') void chrome.runtime.openOptionsPage();
});
