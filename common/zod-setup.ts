import { z } from 'zod';

// Imported (for this effect) by every module of common/ that builds a schema, so it runs before
// any parse, in the browser and on the server alike.
// jitless: zod would otherwise probe for eval with `new Function('')` on its first parse. Under our
// Content-Security-Policy (no 'unsafe-eval') the browser refuses it and reports a
// securitypolicyviolation, even though zod catches the error and carries on without its JIT.
z.config({ jitless: true });
