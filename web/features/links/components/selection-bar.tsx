import type { BulkUpdateInput } from '@common/links/bulk-schemas';
import type { Link } from '@common/links/link-schemas';
import { Download, Pause, Play, Tag, Tags, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { ApiError, messageOf } from '../../../api/client';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast } from '../../../components/ui/toaster';
import { formatCount, nouns } from '../../../lib/format';
import { allFilteredLinks, bulkDeleteLinks, bulkUpdateLinks, undoSteps, useRefreshLinks } from '../api/bulk-links';
import type { LinkListFilter } from '../api/get-links';
import { useWorkspaceScope } from '../../workspaces/current-workspace';
import { downloadCsv, selectedLinksCsv } from './selected-csv';
import { tagsTextSchema } from './tags-field';

type Changes = BulkUpdateInput['changes'];
type Open = 'tag' | 'untag' | 'delete' | null;

interface SelectionBarProps {
  selected: Map<number, Link>;
  onSelect: (links: Link[]) => void;
  onClear: () => void;
  filter: LinkListFilter;
  /** Whether the filter finds any link at all. */
  hasLinks: boolean;
}

const count = (n: number) => formatCount(n, nouns.link);

/**
 * Acting on several links: the count selected, «Seleccionar todos los filtrados», and Pausar,
 * Reanudar, Etiquetar, Quitar etiqueta, Exportar and Eliminar. A change says what it did in a
 * notice with «Deshacer»; a delete asks first, naming how many.
 */
export function SelectionBar({ selected, onSelect, onClear, filter, hasLinks }: SelectionBarProps) {
  const refresh = useRefreshLinks();
  const scope = useWorkspaceScope();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState('');
  const [open, setOpen] = useState<Open>(null);
  const [tagText, setTagText] = useState('');
  const [tagError, setTagError] = useState('');
  const [untag, setUntag] = useState('');
  const links = [...selected.values()];
  const ids = links.map((link) => link.id);
  const selectedTags = [...new Set(links.flatMap((link) => link.tags))].sort((a, b) => a.localeCompare(b, 'es'));

  const run = async (label: string, work: () => Promise<string>) => {
    setBusy(label);
    setFailure('');
    setDone('');
    try {
      setDone(await work());
    } catch (error) {
      // A refusal names its reason under a field (too many tags): that reason, not the general one.
      const reasons = error instanceof ApiError ? Object.values(error.fields).flat() : [];
      setFailure(reasons.length > 0 ? reasons.join(' ') : messageOf(error));
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const change = (label: string, changes: Changes, said: (n: number) => string) =>
    run(label, async () => {
      const result = await bulkUpdateLinks(scope, ids, changes);
      const message = said(result.updated);
      const steps = undoSteps(result);
      toast(message, 'info', steps.length === 0 ? undefined : {
        label: 'Deshacer',
        run: () =>
          void run('undo', async () => {
            for (const step of steps) await bulkUpdateLinks(scope, step.ids, step.changes);
            const undone = 'Cambio deshecho.';
            toast(undone, 'info');
            return undone;
          }),
      });
      return message;
    });

  const selectAll = () =>
    run('all', async () => {
      const all = await allFilteredLinks(filter);
      onSelect(all);
      return `${formatCount(all.length, nouns.link)} ${all.length === 1 ? 'seleccionado' : 'seleccionados'}.`;
    });

  const addTags = () => {
    const parsed = tagsTextSchema.safeParse(tagText);
    const tags = parsed.success ? parsed.data : [];
    if (!parsed.success || tags.length === 0) {
      setTagError(parsed.success ? 'Escribe al menos una etiqueta' : [...new Set(parsed.error.issues.map((issue) => issue.message))].join('. '));
      return;
    }
    setOpen(null);
    setTagText('');
    void change('tag', { addTags: tags }, (n) => `Etiqueta «${tags.join('», «')}» añadida a ${count(n)}.`);
  };

  const removeTag = () => {
    const tag = untag || selectedTags[0];
    if (!tag) return;
    setOpen(null);
    void change('untag', { removeTags: [tag] }, (n) => `Etiqueta «${tag}» quitada de ${count(n)}.`);
  };

  const remove = () => {
    setOpen(null);
    void run('delete', async () => {
      const deleted = await bulkDeleteLinks(scope, ids);
      onClear();
      const message = `${count(deleted)} ${deleted === 1 ? 'eliminado' : 'eliminados'}.`;
      toast(message, 'info');
      return message;
    });
  };

  const exportCsv = () => {
    downloadCsv(selectedLinksCsv(links), `links-seleccionados-${new Date().toISOString().slice(0, 10)}.csv`);
    setFailure('');
    setDone(`${count(links.length)} ${links.length === 1 ? 'exportado' : 'exportados'} a CSV.`);
  };

  // Nothing to select: gone, unless it still has something to say (every filtered link just deleted).
  if (!hasLinks && selected.size === 0 && !done && !failure) return null;
  return (
    <section aria-label="Selección de links" className="space-y-2 rounded-xl border border-slate-800 bg-slate-900/60 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-slate-200" aria-live="polite">
          {selected.size === 0 ? 'Ningún link seleccionado' : `${count(selected.size)} ${selected.size === 1 ? 'seleccionado' : 'seleccionados'}`}
        </p>
        {hasLinks && (
          <Button size="sm" variant="outline" onClick={selectAll} loading={busy === 'all'} disabled={busy !== null}>
            Seleccionar todos los filtrados
          </Button>
        )}
        {selected.size > 0 && (
          <Button size="sm" variant="ghost" onClick={onClear} disabled={busy !== null}>
            <X aria-hidden /> Quitar selección
          </Button>
        )}
      </div>
      {selected.size > 0 && (
        <div className="flex flex-wrap gap-2" role="group" aria-label="Acciones sobre los seleccionados">
          <Button size="sm" variant="outline" loading={busy === 'pause'} disabled={busy !== null} onClick={() => void change('pause', { paused: true }, (n) => `${count(n)} en pausa.`)}>
            <Pause aria-hidden /> Pausar
          </Button>
          <Button size="sm" variant="outline" loading={busy === 'resume'} disabled={busy !== null} onClick={() => void change('resume', { paused: false }, (n) => `${count(n)} ${n === 1 ? 'reanudado' : 'reanudados'}.`)}>
            <Play aria-hidden /> Reanudar
          </Button>
          <Button size="sm" variant="outline" loading={busy === 'tag'} disabled={busy !== null} onClick={() => { setTagError(''); setOpen('tag'); }}>
            <Tag aria-hidden /> Etiquetar
          </Button>
          <Button size="sm" variant="outline" loading={busy === 'untag'} disabled={busy !== null || selectedTags.length === 0} onClick={() => { setUntag(selectedTags[0] ?? ''); setOpen('untag'); }}>
            <Tags aria-hidden /> Quitar etiqueta
          </Button>
          <Button size="sm" variant="outline" disabled={busy !== null} onClick={exportCsv}>
            <Download aria-hidden /> Exportar
          </Button>
          <Button size="sm" variant="destructive" loading={busy === 'delete'} disabled={busy !== null} onClick={() => setOpen('delete')}>
            <Trash2 aria-hidden /> Eliminar
          </Button>
        </div>
      )}
      {/* Beside the buttons that were pressed: what happened, or why not. */}
      {failure ? (
        <Alert>{failure}</Alert>
      ) : (
        <p role="status" className="text-sm text-teal-200 empty:hidden">
          {busy === 'undo' ? 'Deshaciendo…' : done}
        </p>
      )}

      <Dialog open={open === 'tag'} onOpenChange={(next) => setOpen(next ? 'tag' : null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Etiquetar {count(selected.size)}</DialogTitle>
            <DialogDescription>Las etiquetas se añaden a las que ya tiene cada link.</DialogDescription>
          </DialogHeader>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              addTags();
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor="bulk-tags">Etiquetas (separadas por comas)</Label>
              <Input
                id="bulk-tags"
                value={tagText}
                onChange={(event) => setTagText(event.target.value)}
                aria-invalid={tagError !== '' || undefined}
                aria-describedby={tagError ? 'bulk-tags-error' : undefined}
                autoComplete="off"
              />
              {tagError && (
                <p id="bulk-tags-error" role="alert" className="text-sm text-red-300">
                  {tagError}
                </p>
              )}
            </div>
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline">
                  Cancelar
                </Button>
              </DialogClose>
              <Button type="submit">Etiquetar</Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={open === 'untag'} onOpenChange={(next) => setOpen(next ? 'untag' : null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Quitar una etiqueta de {count(selected.size)}</DialogTitle>
            <DialogDescription>Se quita de los links seleccionados que la tengan.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="bulk-untag">Etiqueta</Label>
            <select
              id="bulk-untag"
              value={untag}
              onChange={(event) => setUntag(event.target.value)}
              className="h-10 rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-teal-400/60"
            >
              {selectedTags.map((tag) => (
                <option key={tag} value={tag}>
                  {tag}
                </option>
              ))}
            </select>
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancelar</Button>
            </DialogClose>
            <Button onClick={removeTag}>Quitar etiqueta</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>

      <Dialog open={open === 'delete'} onOpenChange={(next) => setOpen(next ? 'delete' : null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>¿Eliminar {count(selected.size)}?</DialogTitle>
            <DialogDescription>
              {selected.size === 1
                ? 'Se eliminará el link seleccionado y su dirección corta dejará de funcionar, también en los códigos QR impresos. No se puede deshacer.'
                : `Se eliminarán los ${count(selected.size)} seleccionados y sus direcciones cortas dejarán de funcionar, también en los códigos QR impresos. No se puede deshacer.`}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancelar</Button>
            </DialogClose>
            <Button variant="destructive" onClick={remove}>
              Eliminar {count(selected.size)}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}
