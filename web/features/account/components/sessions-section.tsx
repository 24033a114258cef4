import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/form/form-alert';
import { Alert } from '../../../components/ui/alert';
import { messageOf } from '../../../api/client';
import { useEndSessions, useSessions } from '../api/sessions';
import { Section } from './section';

const when = new Intl.DateTimeFormat('es', { dateStyle: 'medium', timeStyle: 'short' });

export function SessionsSection() {
  const sessions = useSessions();
  const end = useEndSessions();
  const others = (sessions.data ?? []).filter((session) => !session.current);
  return (
    <Section id="cuenta-sesiones" title="Sesiones" description="Los navegadores donde has iniciado sesión.">
      {sessions.isPending && <p className="text-sm text-slate-300">Cargando sesiones…</p>}
      {sessions.isError && <Alert>{messageOf(sessions.error)}</Alert>}
      {/* Scrolled into view: the «Cerrar» pressed may be far down a long list. */}
      <FormAlert message={end.isError ? messageOf(end.error) : undefined} />
      <ul className="grid gap-3" aria-label="Sesiones abiertas">
        {(sessions.data ?? []).map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-700 p-3">
            <div className="grid gap-1">
              <p className="font-medium">
                {session.device}
                {session.current && <span className="ml-2 rounded bg-teal-800 px-2 py-0.5 text-xs text-teal-100">Esta sesión</span>}
              </p>
              <p className="text-sm text-slate-300">
                Iniciada el {when.format(new Date(session.createdAt))} · Vista por última vez el {when.format(new Date(session.lastSeenAt))}
              </p>
            </div>
            {!session.current && (
              <Button
                variant="outline"
                aria-label={`Cerrar la sesión de ${session.device}`}
                loading={end.isPending && end.variables === session.id}
                onClick={() => end.mutate(session.id)}
              >
                Cerrar
              </Button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <Button variant="outline" className="mt-4" loading={end.isPending && end.variables === undefined} onClick={() => end.mutate(undefined)}>
          Cerrar las demás
        </Button>
      )}
    </Section>
  );
}
