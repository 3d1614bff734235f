/**
 * The look of a trading terminal: dark by default, compact (xs/sm sizes everywhere), numbers in a
 * monospace face with tabular figures so columns of prices and floats line up digit under digit.
 */
import { createTheme, type MantineColorsTuple } from '@mantine/core';

/** Slightly blue-tinted greys: long sessions on a dark screen read better than on pure black. */
const dark: MantineColorsTuple = [
  '#c9ced6',
  '#aab1bc',
  '#8a93a1',
  '#5f6877',
  '#3a414d',
  '#2b313b',
  '#1f242c',
  '#181c22',
  '#12151a',
  '#0c0e12',
];

export const MONO_FONT = 'ui-monospace, "JetBrains Mono", "SF Mono", SFMono-Regular, Menlo, Consolas, monospace';

export const theme = createTheme({
  primaryColor: 'teal',
  colors: { dark },
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontFamilyMonospace: MONO_FONT,
  defaultRadius: 'sm',
  fontSizes: { xs: '11px', sm: '12px', md: '13px', lg: '15px', xl: '17px' },
  lineHeights: { xs: '1.35', sm: '1.4', md: '1.45' },
  spacing: { xs: '6px', sm: '8px', md: '12px', lg: '16px', xl: '24px' },
  headings: { sizes: { h1: { fontSize: '15px' }, h2: { fontSize: '14px' }, h3: { fontSize: '13px' } } },
  components: {
    Button: { defaultProps: { size: 'xs' } },
    ActionIcon: { defaultProps: { size: 'sm', variant: 'subtle' } },
    TextInput: { defaultProps: { size: 'xs' } },
    PasswordInput: { defaultProps: { size: 'xs' } },
    // Mantine reads a comma as a decimal point by default: "1,000" in a price field became $1.00. A comma
    // here is a thousands separator or nothing (the prices are shown with one), never the decimal point.
    NumberInput: { defaultProps: { size: 'xs', hideControls: true, allowedDecimalSeparators: ['.'] } },
    Select: { defaultProps: { size: 'xs' } },
    MultiSelect: { defaultProps: { size: 'xs' } },
    TagsInput: { defaultProps: { size: 'xs' } },
    SegmentedControl: { defaultProps: { size: 'xs' } },
    Checkbox: { defaultProps: { size: 'xs' } },
    Switch: { defaultProps: { size: 'xs' } },
    Badge: { defaultProps: { size: 'sm', radius: 'sm' } },
    Tooltip: { defaultProps: { openDelay: 250, withArrow: true, fz: 'xs' } },
    Modal: { defaultProps: { size: 'md', centered: true } },
    Kbd: { defaultProps: { size: 'xs' } },
  },
});
