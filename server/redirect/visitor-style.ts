import type { FastifyInstance } from 'fastify';
import { staticSecurityHeaders } from '../http/security-headers';

/** Where the visitor pages take their look from: a file, as the policy allows no inline style. */
export const VISITOR_STYLE_PATH = '/assets/visitor-page.css';

// The app's colours (slate and teal), on a page that needs nothing else.
const css = `*{box-sizing:border-box}
html{color-scheme:dark}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:1.5rem;background:#020617;color:#e2e8f0;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;max-width:28rem;padding:2rem;border:1px solid #1e293b;border-radius:1rem;background:#0f172a}
h1{margin:0 0 .75rem;font-size:1.5rem;line-height:1.25;color:#f8fafc}
p{margin:0 0 1rem;color:#cbd5e1}
a{color:#5eead4}
a:focus-visible,input:focus-visible,button:focus-visible{outline:2px solid #5eead4;outline-offset:2px}
form{display:grid;gap:.5rem;margin:0 0 1.5rem}
label{font-weight:600;font-size:.875rem;color:#e2e8f0}
input{width:100%;height:2.5rem;padding:0 .75rem;border:1px solid #334155;border-radius:.5rem;background:#020617;color:#f1f5f9;font:inherit}
input[aria-invalid=true]{border-color:#f87171}
[role=alert]{margin:0;color:#fca5a5;font-size:.875rem}
button{margin-top:.5rem;height:2.5rem;border:0;border-radius:.5rem;background:#2dd4bf;color:#042f2e;font:inherit;font-weight:700;cursor:pointer}
button:hover{background:#5eead4}
`;

/** Serves the visitor pages' stylesheet (cached a day: it changes only with a release). */
export function visitorStyleRoute(app: FastifyInstance) {
  app.get(VISITOR_STYLE_PATH, { helmet: false }, (_request, reply) =>
    reply
      .headers(staticSecurityHeaders)
      .header('cache-control', 'public, max-age=86400')
      .type('text/css; charset=utf-8')
      .send(css),
  );
}
