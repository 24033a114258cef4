import type { CreatedToken } from '@common/tokens/token-schemas';
import { useState } from 'react';
import { usePageTitle } from '../../app/use-page-title';
import { Alert } from '../../components/ui/alert';
import { BarLoader } from '../../components/ui/bar-loader';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { messageOf } from '../../api/client';
import { roleMayNotReasons } from '@common/workspaces/workspace-roles';
import { useCurrentWorkspace } from '../workspaces/current-workspace';
import { useTokens } from './api/tokens';
import { CreateTokenForm } from './components/create-token-form';
import { NewSecret } from './components/new-secret';
import { TokensList } from './components/tokens-list';

/** 'Tokens de API': personal tokens for scripts and tools (ShareX, a spreadsheet, a bot). */
export function TokensPage() {
  usePageTitle('Tokens de API');
  const tokens = useTokens();
  const { workspace, may } = useCurrentWorkspace();
  // A team's tokens are its admins' business; the personal workspace's are the user's own.
  const team = workspace && !workspace.personal ? workspace : undefined;
  const [created, setCreated] = useState<CreatedToken | null>(null);
  if (team && !may('manage')) {
    return (
      <div className="mx-auto grid max-w-3xl gap-4">
        <h1 className="text-2xl font-bold tracking-tight">Tokens de API de «{team.name}»</h1>
        <p className="text-slate-300">{roleMayNotReasons.manage}</p>
      </div>
    );
  }
  return (
    <div className="mx-auto grid max-w-3xl gap-8">
      <header className="grid gap-2">
        <h1 className="text-2xl font-bold tracking-tight">{team ? `Tokens de API de «${team.name}»` : 'Tokens de API'}</h1>
        {team && <p className="text-slate-300">Los tokens creados aquí actúan solo en este espacio de trabajo.</p>}
        <p className="text-slate-300">
          Con un token, tus programas usan la API de Corto en tu nombre: envíalo en la cabecera{' '}
          <code className="text-teal-200">Authorization: Bearer …</code>. Consulta la{' '}
          <a className="text-teal-300 underline" href="/api/docs/">
            referencia de la API
          </a>
          .
        </p>
      </header>
      {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
      <Card>
        <CardHeader>
          <CardTitle>Nuevo token</CardTitle>
          <CardDescription>Dale un nombre que te diga dónde lo usas.</CardDescription>
        </CardHeader>
        <CardContent>
          <CreateTokenForm onCreated={setCreated} />
        </CardContent>
      </Card>
      <section className="grid gap-3" aria-labelledby="tokens-title">
        <h2 id="tokens-title" className="text-lg font-semibold">
          Tus tokens
        </h2>
        {tokens.isPending && <BarLoader label="Cargando tokens" />}
        {tokens.isError && <Alert>{messageOf(tokens.error)}</Alert>}
        {tokens.data && <TokensList tokens={tokens.data.tokens} />}
      </section>
    </div>
  );
}
