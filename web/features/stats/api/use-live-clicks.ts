import { type ClickEventData, clickEventDataSchema } from '@common/webhooks/webhook-schemas';
import { useEffect, useRef, useState } from 'react';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { withWorkspace } from '../../workspaces/workspace-path';

/** The newest clicks kept on screen. */
export const LIVE_CLICKS_SHOWN = 20;

export type LiveState = 'connecting' | 'connected' | 'reconnecting' | 'ended';

/**
 * The link's clicks as they are recorded (GET /api/links/:id/live, Server-Sent Events), newest
 * first. EventSource reconnects by itself after a cut; the server's `end` event (the session or
 * the access is gone) and a refused reconnection close it for good.
 */
/** A click as shown, with a key of its own (two clicks may look alike). */
export interface LiveClick {
  key: number;
  click: ClickEventData;
}

export function useLiveClicks(linkId: number): { clicks: LiveClick[]; state: LiveState } {
  const scope = useWorkspaceScope();
  const [clicks, setClicks] = useState<LiveClick[]>([]);
  const received = useRef(0);
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    const source = new EventSource(withWorkspace(`/api/links/${linkId}/live`, scope));
    source.onopen = () => setState('connected');
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'ended' : 'reconnecting');
    source.onmessage = (message: MessageEvent<string>) => {
      const parsed = clickEventDataSchema.safeParse(JSON.parse(message.data));
      if (!parsed.success) return;
      const shown = { key: ++received.current, click: parsed.data };
      setClicks((before) => [shown, ...before].slice(0, LIVE_CLICKS_SHOWN));
    };
    source.addEventListener('end', () => {
      source.close();
      setState('ended');
    });
    return () => source.close();
  }, [linkId, scope]);

  return { clicks, state };
}
