import { Tag } from 'lucide-react';
import { Link } from 'react-router';

/** A link's tags as chips; each opens the dashboard filtered by it. */
export function TagChips({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Etiquetas" className="relative z-10 flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={`/dashboard?${new URLSearchParams({ tag })}`}
            title={`Ver los links con la etiqueta «${tag}»`}
            className="inline-flex items-center gap-1 rounded-full border border-slate-600 bg-slate-800 px-2 py-0.5 text-xs text-slate-200 hover:border-teal-400 hover:text-teal-200 focus-visible:outline-2 focus-visible:outline-teal-300"
          >
            <Tag aria-hidden className="size-3" />
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
