import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../../src/renderer/App.tsx';

describe('App shell', () => {
  it('shows the Skindesk header in the dark color scheme', () => {
    render(<App />);
    const heading = screen.getByRole('heading', { level: 1, name: 'Skindesk' });
    expect(heading.closest('header')).not.toBeNull();
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
  });
});
