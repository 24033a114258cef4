import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';

/** Carries the typed address to the sign-in screen, which hands it to the create-link dialog. */
export function ShortenForm() {
  const navigate = useNavigate();
  const [url, setUrl] = useState('');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = url.trim();
    if (value) navigate(`/auth?createNew=${encodeURIComponent(value)}`);
  }

  return (
    <form onSubmit={onSubmit} className="mt-10 flex w-full max-w-2xl flex-col gap-3 sm:flex-row">
      <label htmlFor="landing-url" className="sr-only">
        URL que quieres acortar
      </label>
      <Input
        id="landing-url"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="Escribe tu URL aquí..."
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        className="h-12 flex-1 text-base"
      />
      <Button type="submit" size="lg">
        Acortar!
      </Button>
    </form>
  );
}
