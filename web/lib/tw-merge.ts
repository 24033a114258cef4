import { createTailwindMerge } from 'tailwind-merge';

// tailwind-merge's full default config weighs ~8 kB gzip, too much for the landing page's
// 110 kB budget. Its engine with this config (~2 kB) knows the utility groups our primitives set
// and screens override: a later class of the same group wins, modifiers (hover:, sm:, data-...) kept apart.

const arbitrary = (value: string) => /^\[.+\]$/.test(value) || /^\(.+\)$/.test(value);
const isNumber = (value: string) => /^\d+(\.\d+)?$/.test(value);
const isFraction = (value: string) => /^\d+\/\d+$/.test(value);
const isLength = (value: string) =>
  isNumber(value) ||
  isFraction(value) ||
  arbitrary(value) ||
  ['px', 'full', 'auto', 'screen', 'dvh', 'svh', 'lvh', 'min', 'max', 'fit'].includes(value);
const isColor = (value: string) =>
  arbitrary(value) ||
  /^(inherit|current|transparent|black|white|accent|accent-strong)(\/\d+)?$/.test(value) ||
  /^[a-z]+-\d{2,3}(\/\d+)?$/.test(value);

const sizes = ['xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl', '4xl', '5xl', '6xl', '7xl', '8xl', '9xl'];
const fontSizes = ['xs', 'sm', 'base', 'lg', 'xl', '2xl', '3xl', '4xl', '5xl', '6xl', '7xl', '8xl', '9xl', arbitrary];
const radii = ['', 'none', 'xs', 'sm', 'md', 'lg', 'xl', '2xl', '3xl', '4xl', 'full', arbitrary];
const shadows = ['', 'none', '2xs', 'xs', 'sm', 'md', 'lg', 'xl', '2xl', 'inner'];
const weights = ['thin', 'extralight', 'light', 'normal', 'medium', 'semibold', 'bold', 'extrabold', 'black'];
const spacing = [isLength];
const sides = ['t', 'r', 'b', 'l', 'x', 'y', 's', 'e'] as const;

export const twMerge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups: {
    display: ['block', 'inline-block', 'inline', 'flex', 'inline-flex', 'grid', 'inline-grid', 'contents', 'hidden'],
    position: ['static', 'fixed', 'absolute', 'relative', 'sticky'],
    overflow: [{ overflow: ['auto', 'hidden', 'clip', 'visible', 'scroll'] }],
    inset: [{ inset: spacing }],
    top: [{ top: spacing }],
    right: [{ right: spacing }],
    bottom: [{ bottom: spacing }],
    left: [{ left: spacing }],
    w: [{ w: spacing }],
    h: [{ h: spacing }],
    size: [{ size: spacing }],
    'min-w': [{ 'min-w': [...spacing, ...sizes] }],
    'max-w': [{ 'max-w': [...spacing, ...sizes, 'none', 'prose'] }],
    'min-h': [{ 'min-h': spacing }],
    'max-h': [{ 'max-h': spacing }],
    ...Object.fromEntries(['p', 'px', 'py', 'pt', 'pr', 'pb', 'pl', 'm', 'mx', 'my', 'mt', 'mr', 'mb', 'ml'].map((key) => [key, [{ [key]: spacing }]])),
    gap: [{ gap: spacing }],
    'gap-x': [{ 'gap-x': spacing }],
    'gap-y': [{ 'gap-y': spacing }],
    flex: [{ flex: ['1', 'auto', 'initial', 'none', arbitrary] }],
    'flex-direction': [{ flex: ['row', 'row-reverse', 'col', 'col-reverse'] }],
    'flex-wrap': [{ flex: ['wrap', 'wrap-reverse', 'nowrap'] }],
    justify: [{ justify: ['start', 'end', 'center', 'between', 'around', 'evenly', 'stretch'] }],
    items: [{ items: ['start', 'end', 'center', 'baseline', 'stretch'] }],
    'font-size': [{ text: fontSizes }],
    'text-align': [{ text: ['left', 'center', 'right', 'justify', 'start', 'end'] }],
    'text-wrap': [{ text: ['wrap', 'nowrap', 'balance', 'pretty'] }],
    'text-color': [{ text: [isColor] }],
    'font-weight': [{ font: weights }],
    leading: [{ leading: ['none', 'tight', 'snug', 'normal', 'relaxed', 'loose', isNumber, arbitrary] }],
    tracking: [{ tracking: ['tighter', 'tight', 'normal', 'wide', 'wider', 'widest', arbitrary] }],
    bg: [{ bg: [isColor] }],
    rounded: [{ rounded: radii }],
    'border-w': [{ border: ['', isNumber, arbitrary] }],
    ...Object.fromEntries(sides.map((side) => [`border-w-${side}`, [{ [`border-${side}`]: ['', isNumber] }]])),
    'border-color': [{ border: [isColor] }],
    shadow: [{ shadow: shadows }],
    'shadow-color': [{ shadow: [isColor] }],
    ring: [{ ring: ['', isNumber] }],
    'ring-color': [{ ring: [isColor] }],
    outline: [{ outline: ['', 'none', 'hidden', isNumber] }],
    'outline-color': [{ outline: [isColor] }],
    'outline-offset': [{ 'outline-offset': [isNumber] }],
    opacity: [{ opacity: [isNumber] }],
  },
  conflictingClassGroups: {
    inset: ['top', 'right', 'bottom', 'left'],
    size: ['w', 'h'],
    p: ['px', 'py', 'pt', 'pr', 'pb', 'pl'],
    px: ['pr', 'pl'],
    py: ['pt', 'pb'],
    m: ['mx', 'my', 'mt', 'mr', 'mb', 'ml'],
    mx: ['mr', 'ml'],
    my: ['mt', 'mb'],
    gap: ['gap-x', 'gap-y'],
    'border-w': sides.map((side) => `border-w-${side}`),
  },
  conflictingClassGroupModifiers: {},
  orderSensitiveModifiers: [],
}));
