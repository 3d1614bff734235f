import { describe, expect, it } from 'vitest';
import { asSentence, upperFirst } from '../../../src/shared/sentence.ts';

describe('upperFirst', () => {
  it('capitalises the first letter and leaves the rest as written', () => {
    expect(upperFirst('waiting for the partner (AK-47)')).toBe('Waiting for the partner (AK-47)');
    expect(upperFirst('')).toBe('');
    expect(upperFirst('3 listings')).toBe('3 listings');
  });
});

describe('asSentence', () => {
  it('adds a full stop only where the words do not already end a sentence', () => {
    expect(asSentence('address: this does not look like an address')).toBe(
      'Address: this does not look like an address.',
    );
    expect(asSentence('the webhook answered 500.')).toBe('The webhook answered 500.');
    expect(asSentence('is the market up?')).toBe('Is the market up?');
    expect(asSentence('reading the book…')).toBe('Reading the book…');
  });

  it('does not leave a space before the full stop', () => {
    expect(asSentence('too many requests ')).toBe('Too many requests.');
  });
});
