// autocannon in a process of its own (load.ts starts it): in the bench's process its event loop
// would share a thread with whatever else the bench runs meanwhile (the dashboard's ten search
// loops), and every delay there would be counted as the server's latency.
// Seconds 'until-stopped' (load.ts's loadUntil): it says 'started' once running, and runs until
// SIGINT, then reports as it does at the end of a duration.
import autocannon from 'autocannon';

// An optional fourth argument: the Host header to send (a custom domain's visits).
const [url, connections, seconds, host] = process.argv.slice(2);
const untilStopped = seconds === 'until-stopped';
const instance = autocannon(
  {
    url: url!,
    connections: Number(connections),
    duration: untilStopped ? 3600 : Number(seconds),
    followRedirect: false,
    ...(host ? { headers: { host } } : {}),
  },
  (error, result) => {
    if (error) throw error;
    process.stdout.write(JSON.stringify(result));
  },
);
if (untilStopped) {
  process.once('SIGINT', () => instance.stop());
  process.stdout.write('started\n');
}
