import { AsyncResource } from 'node:async_hooks';

/**
 * Keeps the shape of process.nextTick's queue entries alive for as long as the process runs.
 *
 * Every HTTP answer goes through process.nextTick several times (Node's streams and HTTP server
 * call it), and nextTick builds each entry with an object literal whose keys are computed:
 * `{ [async_id_symbol]: asyncId, [trigger_async_id_symbol]: triggerAsyncId, callback, args }`.
 * For each key after the first, V8 remembers the hidden class (map) the object had before it, and
 * holds that map weakly. A full garbage collection at a moment when no entry is queued (the event
 * loop idle between two steps of the start-up, or a server with nothing to do) frees those maps;
 * the next nextTick makes new ones, and for this kind of literal V8 does not take the new map in
 * place of the freed one: it marks the literal megamorphic, for good. From then on every nextTick
 * defines its properties through V8's generic runtime path (`Runtime_DefineKeyedOwnPropertyInLiteral`,
 * with `MigrateToMap` and `TransitionToDataProperty` beside it), 12 to 19 % of the event loop
 * under a stream of redirects, in whichever processes a collection happened to fall that way.
 *
 * One object built with the same keys in the same order, from a literal of as many properties,
 * goes through the same chain of maps; while it lives, those maps do too, and nextTick keeps
 * finding the maps it remembered. The two symbols are Node's own, as AsyncResource stores them.
 * The literal is Node 20's; Node 24's has a third key (the async context frame), whose symbol this
 * does not look for (nor is Node 24 measured), so there it does nothing, nor on any version where
 * the two symbols are not found. docs/redirects-and-clicks.md has the measurements.
 */
let kept: object | undefined;

export function keepNextTickShape(): void {
  if (kept || process.versions.node.split('.')[0] !== '20') return;
  // requireManualDestroy: no destroy hook is registered for it (none runs anyway without async hooks).
  const resource = new AsyncResource('CortoNextTickShape', { requireManualDestroy: true });
  const symbols = Object.getOwnPropertySymbols(resource);
  const asyncId = symbols.find((symbol) => symbol.description === 'async_id_symbol');
  const triggerAsyncId = symbols.find((symbol) => symbol.description === 'trigger_async_id_symbol');
  if (!asyncId || !triggerAsyncId) return;
  // nextTick's ids are read from a Float64Array, so V8 stores them as doubles; a number that is not
  // a small integer is stored the same way (a small integer here would make the first field an
  // integer one, and nextTick's first id would replace the whole chain of maps). Then the literal
  // as nextTick writes it, key for key.
  const notAnId = 0.5;
  kept = { [asyncId]: notAnId, [triggerAsyncId]: notAnId, callback: () => {}, args: undefined };
}
