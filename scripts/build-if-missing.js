// `npm start`'s prestart: builds only when there is no build yet (a fresh clone), so a restart
// starts at once on the build that is there, and never rebuilds under a running server. After
// updating the code: `npm run build`, then restart. Plain JavaScript: it runs without tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = ['dist/server/main.js', 'dist/web/index.html'].every((file) => existsSync(file));
if (!built) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(build.status ?? 1);
}
