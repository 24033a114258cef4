import { Component, type ReactNode } from 'react';
import { networkMessages } from '@common/messages';
import { Button } from '../components/ui/button';

type Props = { children: ReactNode };
type State = { failed: boolean };

/**
 * A screen whose code could not be downloaded (the server stopped, the connection dropped) says
 * so in Spanish, instead of leaving a blank page. React keeps a failed lazy import, so trying
 * again is a fresh page load. The layout keys it by path: another screen starts afresh.
 */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
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
