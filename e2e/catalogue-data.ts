import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A teacher of the real catalogue, as the export has it (the fields the journeys check). */
export interface TeacherRecord {
  name: string;
  surname: string;
  languages: string[];
  levels: string[];
  price_per_hour: number;
  lesson_info: string;
  conditions: string[];
  experience: string;
}

// The catalogue the server under test imported (../shared/data/teachers.json, or CATALOGUE_FILE).
const here = path.dirname(fileURLToPath(import.meta.url));
const dataFile = process.env.CATALOGUE_FILE ?? path.resolve(here, '../../shared/data/teachers.json');
const raw = JSON.parse(readFileSync(dataFile, 'utf8')) as unknown;
const collection = (raw as { teachers?: unknown }).teachers ?? raw;

/** Every teacher of that catalogue, read once. */
export const TEACHERS = (Array.isArray(collection) ? collection : Object.values(collection as object)) as TeacherRecord[];
export const fullName = (t: TeacherRecord) => `${t.name} ${t.surname}`;
