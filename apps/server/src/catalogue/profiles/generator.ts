import { LEVELS, type Level, type Review, type TeacherRecord } from '@learnlingo/contract';

/*
 * A deterministic catalogue: teacher n (1-based) is always the same person, whatever the
 * count, because each one draws from its own PRNG stream seeded by (seed, n). The seed
 * data, the benchmark database and the test factories all come from here.
 */

export const GENERATOR_SEED = 20_240_611;

/** mulberry32: small, fast, good enough for test data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
function pickDistinct<T>(rng: Rng, list: readonly T[], count: number): T[] {
  const pool = [...list];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(Math.floor(rng() * pool.length), 1)[0] as T);
  return out;
}

export const GENERATED_LANGUAGES = [
  'English',
  'Spanish',
  'French',
  'German',
  'Italian',
  'Portuguese',
  'Mandarin Chinese',
  'Japanese',
  'Korean',
  'Arabic',
  'Ukrainian',
  'Polish',
  'Dutch',
  'Turkish',
] as const;

/**
 * Where a teacher of each language plausibly lives (English names, as the catalogue shows
 * them): a generated teacher lives in a country of their first language.
 */
export const GENERATED_COUNTRIES: Readonly<Record<(typeof GENERATED_LANGUAGES)[number], readonly string[]>> = {
  English: ['United Kingdom', 'United States', 'Canada', 'Ireland', 'Australia'],
  Spanish: ['Spain', 'Mexico', 'Argentina', 'Colombia'],
  French: ['France', 'Canada', 'Belgium', 'Switzerland'],
  German: ['Germany', 'Austria', 'Switzerland'],
  Italian: ['Italy', 'Switzerland'],
  Portuguese: ['Portugal', 'Brazil'],
  'Mandarin Chinese': ['China', 'Taiwan', 'Singapore'],
  Japanese: ['Japan'],
  Korean: ['South Korea'],
  Arabic: ['Egypt', 'Morocco', 'Jordan', 'United Arab Emirates'],
  Ukrainian: ['Ukraine', 'Poland'],
  Polish: ['Poland'],
  Dutch: ['Netherlands', 'Belgium'],
  Turkish: ['Turkey', 'Germany'],
};

/** Price steps (per hour): 15..60 by 5, so the price facet stays small. */
export const GENERATED_PRICES = [15, 20, 25, 30, 35, 40, 45, 50, 55, 60] as const;

const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Sofia', 'Mateo', 'Chloé', 'Lucas', 'Hannah', 'Jonas',
  'Giulia', 'Marco', 'Ana', 'João', 'Mei', 'Wei', 'Yuki', 'Haruto', 'Ji-woo', 'Min-jun',
  'Layla', 'Omar', 'Oksana', 'Taras', 'Zofia', 'Jakub', 'Sanne', 'Daan', 'Elif', 'Emre',
  'Amelia', 'Oliver', 'Isabel', 'Diego', 'Léa', 'Hugo', 'Clara', 'Felix', 'Marta', 'Pablo',
] as const;

const LAST_NAMES = [
  'Smith', 'Johnson', 'García', 'Martínez', 'Dubois', 'Laurent', 'Müller', 'Schmidt', 'Rossi',
  'Bianchi', 'Silva', 'Santos', 'Wang', 'Li', 'Tanaka', 'Sato', 'Kim', 'Park', 'Haddad',
  'Nasser', 'Kovalenko', 'Shevchenko', 'Nowak', 'Kowalski', 'de Vries', 'Jansen', 'Yilmaz',
  'Demir', 'Brown', 'Taylor', 'Moreau', 'Weber', 'Ricci', 'Costa', 'Chen', 'Suzuki',
] as const;

const REVIEWER_NAMES = [
  'Alice', 'Bob', 'Carla', 'Dmytro', 'Eva', 'Frank', 'Grace', 'Hiro', 'Ines', 'Jack',
  'Kateryna', 'Leo', 'Maya', 'Nina', 'Oscar', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tom',
] as const;

const REVIEW_TEMPLATES = [
  (n: string) => `${n} is an excellent teacher! I highly recommend them.`,
  (n: string) => `${n} is patient and explains grammar clearly. My speaking improved a lot.`,
  (n: string) => `Lessons with ${n} are fun and well structured.`,
  (n: string) => `${n} helped me prepare for my exam. Great materials and feedback.`,
  (n: string) => `Good lessons, although I would like a bit more homework from ${n}.`,
  (n: string) => `${n} adapts every lesson to my goals. Worth every cent.`,
  (n: string) => `I was nervous at first, but ${n} made me feel comfortable speaking.`,
] as const;

const LESSON_INFO = [
  'The lessons focus on improving speaking and listening skills through interactive activities and discussions.',
  'Lessons are tailored to your goals, with a mix of conversation practice, grammar and vocabulary building.',
  'Each lesson combines real-life dialogues, pronunciation drills and short written exercises.',
  'Structured lessons following the CEFR levels, with homework and progress reviews every month.',
  'Conversation-first lessons built around topics you care about: travel, work, culture and daily life.',
] as const;

const CONDITIONS = [
  'Teaches only adult learners (18 years and above).',
  'Flexible scheduling options available.',
  'Welcomes learners of all levels.',
  'Offers trial lessons to assess the student’s level.',
  'Provides personalized study plans and learning materials.',
  'Lessons can be rescheduled up to 24 hours in advance.',
  'Works with children from 7 years old with a parent present.',
  'Homework is given after every lesson.',
] as const;

function experienceText(rng: Rng, name: string, languages: string[]): string {
  const years = int(rng, 2, 20);
  const focus = pick(rng, [
    'business communication',
    'exam preparation',
    'conversational fluency',
    'teaching children and teenagers',
    'pronunciation and accent training',
  ]);
  return (
    `${name} has been teaching ${languages.join(' and ')} for ${years} years, ` +
    `with a particular focus on ${focus}. ` +
    `${name} has worked with students from many countries and backgrounds and adapts each course to the learner's needs.`
  );
}

export function generatedTeacherId(n: number): string {
  return `t${String(n).padStart(6, '0')}`;
}

/** Teacher number n (1-based) of the generated catalogue. */
export function generateTeacher(n: number, seed = GENERATOR_SEED): TeacherRecord & { id: string } {
  const rng = mulberry32((seed ^ Math.imul(n, 0x9e3779b1)) >>> 0);
  const name = pick(rng, FIRST_NAMES);
  const surname = pick(rng, LAST_NAMES);
  const languages = pickDistinct(rng, GENERATED_LANGUAGES, rng() < 0.6 ? 1 : rng() < 0.75 ? 2 : 3);
  const from = int(rng, 0, 3);
  const to = int(rng, Math.min(from + 1, LEVELS.length - 1), LEVELS.length - 1);
  const levels: Level[] = LEVELS.slice(from, to + 1);
  const rating = int(rng, 35, 50) / 10;
  const reviewCount = int(rng, 0, 8);
  const reviews: Review[] = [];
  for (let i = 0; i < reviewCount; i += 1) {
    reviews.push({
      reviewer_name: pick(rng, REVIEWER_NAMES),
      reviewer_rating: int(rng, 3, 5),
      comment: pick(rng, REVIEW_TEMPLATES)(name),
    });
  }
  return {
    id: generatedTeacherId(n),
    name,
    surname,
    languages,
    levels,
    rating,
    reviews,
    price_per_hour: pick(rng, GENERATED_PRICES),
    lessons_done: int(rng, 0, 3000),
    avatar_url: null,
    lesson_info: pick(rng, LESSON_INFO),
    conditions: pickDistinct(rng, CONDITIONS, int(rng, 1, 3)),
    experience: experienceText(rng, name, languages),
    country: generateCountry(n, languages, seed),
  };
}

/**
 * Generated teacher n's country: one where their first language is spoken, or none for
 * 1 teacher in 20 (a teacher may leave it out). Drawn from a stream of its own, so the rest
 * of each teacher (generateTeacher's stream) stays what it was before countries existed.
 */
function generateCountry(n: number, languages: readonly string[], seed: number): string | null {
  const rng = mulberry32((seed ^ Math.imul(n, 0xc2b2ae35) ^ 0x27d4eb2f) >>> 0);
  if (rng() < 0.05) return null;
  return pick(rng, GENERATED_COUNTRIES[languages[0] as (typeof GENERATED_LANGUAGES)[number]] ?? ['United Kingdom']);
}

/** Teachers from..to (1-based, inclusive). */
export function* generateTeachers(from: number, to: number, seed = GENERATOR_SEED) {
  for (let n = from; n <= to; n += 1) yield generateTeacher(n, seed);
}

/** Test data factory: a valid teacher record with overrides. */
export function buildTeacher(
  overrides: Partial<TeacherRecord> & { id?: string } = {},
  n = 1,
): TeacherRecord & { id: string } {
  const base = generateTeacher(n);
  return { ...base, ...overrides, id: overrides.id ?? base.id };
}

/** Time zones of generated teachers: where the school's teachers plausibly live. */
export const GENERATED_TIME_ZONES = [
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Madrid',
  'Europe/Rome',
  'Europe/Warsaw',
  'Europe/Kyiv',
  'Europe/Lisbon',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Asia/Shanghai',
  'Asia/Dubai',
  'Australia/Sydney',
] as const;

/** Weekly working patterns (Monday first; [fromHour, toHour) in the teacher's zone). */
const HOUR_PATTERNS: number[][][][] = [
  // weekdays 9–17
  [[[9, 17]], [[9, 17]], [[9, 17]], [[9, 17]], [[9, 17]], [], []],
  // mornings and evenings on weekdays, Saturday morning
  [[[8, 12], [17, 21]], [[8, 12], [17, 21]], [[8, 12], [17, 21]], [[8, 12], [17, 21]], [[8, 12]], [[9, 13]], []],
  // afternoons, every day but Sunday
  [[[13, 20]], [[13, 20]], [[13, 20]], [[13, 20]], [[13, 20]], [[10, 16]], []],
  // evenings and weekends (works another job)
  [[[18, 22]], [], [[18, 22]], [], [[18, 22]], [[9, 17]], [[10, 14]]],
  // long days four times a week
  [[[9, 19]], [[9, 19]], [], [[9, 19]], [[9, 19]], [], []],
];

/**
 * Generated teacher n's time zone and weekly hours: drawn from a stream of its own, so the
 * teacher records (generateTeacher) stay what they were before hours existed.
 */
export function generateAvailability(n: number, seed = GENERATOR_SEED): { teacherId: string; timeZone: string; weeklyHours: number[][][] } {
  const rng = mulberry32((seed ^ Math.imul(n, 0x85ebca6b) ^ 0x5bd1e995) >>> 0);
  return {
    teacherId: generatedTeacherId(n),
    timeZone: pick(rng, GENERATED_TIME_ZONES),
    weeklyHours: pick(rng, HOUR_PATTERNS).map((day) => day.map((range) => [...range])),
  };
}
