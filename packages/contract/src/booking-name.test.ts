import { describe, expect, it } from 'vitest';
import { fullNameSchema, NAME_WITH_ADDRESS } from './booking.js';

describe("the booking form's full name", () => {
  it.each(['J.Smith', 'St.John', 'Ж.Иванов', 'Dr.med. Hans Müller', 'J.R.R. Tolkien', "O'Brien", 'Ana-María', '王小明'])('accepts the real name %j', (name) => {
    expect(fullNameSchema.safeParse(name).success).toBe(true);
  });

  it.each(['https://evil.example', 'see x://y', 'me@evil.example', 'www.evil.example', 'WWW\u3002evil\u3002example'])('refuses %j, which a mail client would link by itself', (name) => {
    const result = fullNameSchema.safeParse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(NAME_WITH_ADDRESS);
  });
});
