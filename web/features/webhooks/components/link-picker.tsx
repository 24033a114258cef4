import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FieldError, fieldErrorId } from '../../../components/ui/field-error';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { getLinks } from '../../links/api/get-links';
import { useWorkspaceScope } from '../../workspaces/current-workspace';

export interface PickedLink {
  id: number;
  title: string;
}

const RESULTS = 8;

/** Optionally, only some of the workspace's links: found with the links' own search, added and removed one by one. */
export function LinkPicker({
  inputId,
  picked,
  onChange,
  errors,
}: {
  inputId: string;
  picked: PickedLink[];
  onChange: (links: PickedLink[]) => void;
  errors: string[];
}) {
  const workspace = useWorkspaceScope();
  const [search, setSearch] = useState('');
  const term = search.trim();
  const found = useQuery({
    queryKey: ['webhooks', 'link-search', workspace, term],
    queryFn: ({ signal }) => getLinks({ workspace, search: term }, null, signal, RESULTS),
    enabled: term.length > 0,
  });
  const chosen = new Set(picked.map((link) => link.id));
  const results = (found.data?.links ?? []).filter((link) => !chosen.has(link.id));

  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>Solo estos links (opcional)</Label>
      <p className="text-xs text-slate-400">Sin ninguno elegido, el webhook recibe los eventos de todos los links del espacio.</p>
      {picked.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Links elegidos">
          {picked.map((link) => (
            <li key={link.id} className="flex items-center gap-1 rounded-full bg-slate-800 py-0.5 pr-1 pl-3 text-sm">
              <span className="max-w-56 truncate">{link.title}</span>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                className="size-6"
                aria-label={`Quitar ${link.title}`}
                onClick={() => onChange(picked.filter((known) => known.id !== link.id))}
              >
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Input
        id={inputId}
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Busca un link por título o dirección"
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={fieldErrorId(inputId)}
      />
      <FieldError fieldId={inputId} messages={errors} />
      {term && (
        <ul className="grid gap-1" aria-label="Links encontrados">
          {results.map((link) => (
            <li key={link.id}>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="h-auto w-full justify-start py-1.5 text-left whitespace-normal"
                onClick={() => {
                  onChange([...picked, { id: link.id, title: link.title }]);
                  setSearch('');
                  document.getElementById(inputId)?.focus();
                }}
              >
                <span className="min-w-0 break-words">
                  Añadir «{link.title}» <span className="text-slate-400">{link.shortLink}</span>
                </span>
              </Button>
            </li>
          ))}
          {found.isSuccess && results.length === 0 && <li className="text-sm text-slate-400">Ningún link coincide.</li>}
        </ul>
      )}
    </div>
  );
}
