// autocannon in a process of its own (load.ts starts it): in the bench's process its event loop
// would share a thread with whatever else the bench runs meanwhile (the dashboard's ten search
// loops), and every delay there would be counted as the server's latency.
import autocannon from 'autocannon';

const [url, connections, seconds] = process.argv.slice(2);
const result = await autocannon({ url: url!, connections: Number(connections), duration: Number(seconds), followRedirect: false });
process.stdout.write(JSON.stringify(result));
