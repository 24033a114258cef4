import { ChevronDown } from 'lucide-react';

// Native <details>: several can be open at once, and it costs no JavaScript on the landing page.
const questions = [
  {
    question: '¿Cómo funciona el acortador de URLs de Corto?',
    answer:
      'Cuando introduces una URL larga, Corto genera para ella una dirección corta y única. Quien abra ese enlace corto llegará al instante a la dirección original, y la visita quedará registrada en tus estadísticas.',
  },
  {
    question: '¿Necesito una cuenta para usar la aplicación?',
    answer:
      'Sí. Con una cuenta puedes gestionar tus URLs, consultar sus estadísticas y personalizar tus enlaces cortos con la dirección que prefieras.',
  },
  {
    question: '¿Qué estadísticas puedo ver de mis enlaces?',
    answer:
      'De cada enlace ves el número de clics, la ubicación geográfica desde la que se hicieron (ciudad y país) y el tipo de dispositivo con el que se abrió: móvil o escritorio.',
  },
] as const;

export function Faq() {
  return (
    <section aria-labelledby="faq-title" className="mx-auto w-full max-w-3xl">
      <h2 id="faq-title" className="mb-6 text-center text-2xl font-bold tracking-tight text-white sm:text-3xl">
        Preguntas frecuentes
      </h2>
      <div className="divide-y divide-slate-800 rounded-xl border border-slate-800 bg-slate-900/60">
        {questions.map(({ question, answer }) => (
          <details key={question} className="group px-5">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md py-4 text-left text-base font-medium text-slate-100 hover:text-teal-300 [&::-webkit-details-marker]:hidden">
              {question}
              <ChevronDown
                aria-hidden
                className="size-5 shrink-0 text-slate-400 transition-transform group-open:rotate-180"
              />
            </summary>
            <p className="pb-5 leading-relaxed text-slate-300">{answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
