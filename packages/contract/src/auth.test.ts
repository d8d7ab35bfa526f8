import { describe, expect, it } from 'vitest';
import { updateNameSchema } from './account.js';
import { EMAIL_MAX, EMAIL_PATTERN, emailSchema, loginSchema, registerSchema } from './auth.js';
import { bookingFormSchema } from './booking.js';
import { CONTROL_CHARACTER_MESSAGE } from './rules.js';

/** The original's pattern: quadratic on a domain full of dots that then fails. */
const ORIGINAL_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** issue 10, finding 1: one sign-in with this e-mail held the server for ~1 s. */
const hostile = (dots: number) => `a@${'a.'.repeat(dots)}@`;

describe('the e-mail rule (linear time, length capped first)', () => {
  it('refuses the 62 KB hostile e-mail on its length alone: the pattern never runs', () => {
    const result = emailSchema.safeParse(hostile(31_000));
    expect(result.success).toBe(false);
    // Without `abort` on the cap, zod ran the pattern too and reported it as a second issue.
    expect(result.error?.issues.map((issue) => issue.code)).toEqual(['too_big']);
    expect(emailSchema.safeParse(`${'a'.repeat(EMAIL_MAX - 6)}@b.cdef`).success).toBe(false);
    expect(emailSchema.safeParse(`${'a'.repeat(EMAIL_MAX - 7)}@b.cdef`).success).toBe(true);
  });

  it('runs in linear time: a 200 KB hostile string goes through the pattern itself', () => {
    // The original pattern takes ~10 s of CPU on this string (quadratic: ~5·10⁹ steps);
    // the test's timeout (5 s) fails it. The linear pattern takes about a millisecond.
    expect(EMAIL_PATTERN.test(hostile(100_000))).toBe(false);
    expect(EMAIL_PATTERN.test(`a@${'a.'.repeat(100_000)}cd`)).toBe(true);
    expect(EMAIL_PATTERN.test(`${'a'.repeat(200_000)}@`)).toBe(false);
    expect(EMAIL_PATTERN.test(`a@${'.'.repeat(200_000)}`)).toBe(true);
    expect(EMAIL_PATTERN.test(`a@b${' .'.repeat(100_000)}`)).toBe(false);
  }, 5_000);

  it('accepts exactly the strings the original pattern accepted', () => {
    // Every string up to 7 characters over an alphabet that exercises each part of the pattern.
    const alphabet = ['a', '.', '@', ' '];
    let checked = 0;
    const visit = (prefix: string) => {
      expect([prefix, EMAIL_PATTERN.test(prefix)]).toEqual([prefix, ORIGINAL_EMAIL_PATTERN.test(prefix)]);
      checked += 1;
      if (prefix.length < 7) for (const c of alphabet) visit(prefix + c);
    };
    visit('');
    expect(checked).toBe((4 ** 8 - 1) / 3);
    for (const email of ['a@b.cd', 'a.b@c.d.ef', 'a@b..cd', 'a@.b.cd', 'x+y@sub.example.co.uk', 'a@b.c', 'a@b.cd ']) {
      expect([email, EMAIL_PATTERN.test(email)]).toEqual([email, ORIGINAL_EMAIL_PATTERN.test(email)]);
    }
  });
});

describe('control characters (issue 10, finding 6)', () => {
  const booking = { reason: 'Lesson for kids', fullName: 'Ann Lee', email: 'ann@example.com', phone: '+380 67 123 4567' };
  const register = { name: 'Ann', email: 'ann@example.com', password: 'secret-pass-1' };
  const login = { email: register.email, password: register.password };
  const schemas = { booking: bookingFormSchema, 'sign-up': registerSchema, 'sign-in': loginSchema };
  const cases: { form: keyof typeof schemas; valid: Record<string, string>; field: string }[] = [
    { form: 'booking', valid: booking, field: 'fullName' },
    { form: 'booking', valid: booking, field: 'email' },
    { form: 'booking', valid: booking, field: 'phone' },
    { form: 'sign-up', valid: register, field: 'name' },
    { form: 'sign-up', valid: register, field: 'email' },
    { form: 'sign-up', valid: register, field: 'password' },
    { form: 'sign-in', valid: login, field: 'email' },
    { form: 'sign-in', valid: login, field: 'password' },
  ];

  it.each(cases)('$form refuses a NUL, a DEL or a C1 control in $field, naming the field', ({ form, valid, field }) => {
    const schema = schemas[form];
    expect(schema.safeParse(valid).success).toBe(true);
    for (const control of ['\u0000', '\u0007', '\u007f', '\u0085', '\u009f']) {
      const value = valid[field] as string;
      const bad = `${value.slice(0, 3)}${control}${value.slice(3)}`;
      const result = schema.safeParse({ ...valid, [field]: bad });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toContainEqual(expect.objectContaining({ path: [field], message: CONTROL_CHARACTER_MESSAGE }));
    }
  });
});

describe('the name rule (issue 10: at most 100 characters, registration and name change alike)', () => {
  const register = (name: string) => registerSchema.safeParse({ name, email: 'ann@example.com', password: 'password1' });
  const rename = (name: string) => updateNameSchema.safeParse({ name });

  it('takes 100 characters (after trimming) in both forms', () => {
    for (const name of ['x'.repeat(100), `  ${'x'.repeat(100)}  `]) {
      expect(register(name).success).toBe(true);
      expect(rename(name).success).toBe(true);
    }
  });

  it('refuses 101 characters in both forms with the same message', () => {
    for (const result of [register('x'.repeat(101)), rename('x'.repeat(101))]) {
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['name'], message: 'Name must be at most 100 characters' })]);
    }
  });
});
