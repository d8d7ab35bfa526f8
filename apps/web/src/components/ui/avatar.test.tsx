import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar } from './avatar';

// hydrateRoot here is React's own (Testing Library renders anew): tell React it runs under act
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const imageProto = HTMLImageElement.prototype;
const original = {
  complete: Object.getOwnPropertyDescriptor(imageProto, 'complete'),
  naturalWidth: Object.getOwnPropertyDescriptor(imageProto, 'naturalWidth'),
};
afterEach(() => {
  for (const [name, descriptor] of Object.entries(original)) {
    if (descriptor) Object.defineProperty(imageProto, name, descriptor);
  }
  document.body.innerHTML = '';
});

/** Server HTML in the page, pictures as the browser left them (loaded or failed), then hydrated. */
async function hydrated(picture: { complete: boolean; naturalWidth: number }) {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Avatar src="https://img.example/ann.jpg" name="Ann Lee" />);
  document.body.append(container);
  Object.defineProperty(imageProto, 'complete', { configurable: true, get: () => picture.complete });
  Object.defineProperty(imageProto, 'naturalWidth', { configurable: true, get: () => picture.naturalWidth });
  await act(async () => {
    hydrateRoot(container, <Avatar src="https://img.example/ann.jpg" name="Ann Lee" />);
  });
  return container;
}

describe('Avatar after server rendering', () => {
  it('a picture that failed before the page came alive gives way to the initials', async () => {
    const container = await hydrated({ complete: true, naturalWidth: 0 });
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('AL');
  });

  it('a picture that loaded (or is still loading) stays', async () => {
    expect((await hydrated({ complete: true, naturalWidth: 96 })).querySelector('img')).not.toBeNull();
    document.body.innerHTML = '';
    expect((await hydrated({ complete: false, naturalWidth: 0 })).querySelector('img')).not.toBeNull();
  });
});
