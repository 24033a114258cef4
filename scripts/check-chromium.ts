import { chromiumMissingMessage } from '../e2e/chromium';

const missing = chromiumMissingMessage();
if (missing) {
  console.error(missing);
  process.exit(1);
}
