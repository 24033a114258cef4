import { Component, type ReactNode } from 'react';
import { networkMessages } from '@common/messages';
import { Button } from '../components/ui/button';

type Props = { children: ReactNode; /** The screen's path: another one starts afresh. */ pathname: string };
type State = { failed: boolean; pathname: string };

/**
 * A screen whose code could not be downloaded (the server stopped, the connection dropped) says
 * so in Spanish, instead of leaving a blank page. React keeps a failed lazy import, so trying
 * again is a fresh page load. Not keyed by path: a new boundary would drop the old screen while the
 * next one downloads, where a transition keeps it up under the teal bar.
 */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  override componentDidCatch(error: unknown) {
    console.warn('A screen could not be shown:', error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 py-12 text-center">
        <h1 className="text-2xl font-bold tracking-tight">No se pudo cargar esta página</h1>
        <p className="text-slate-300">{networkMessages.unreachable}</p>
        <Button onClick={() => window.location.reload()}>Reintentar</Button>
      </div>
    );
  }
}
