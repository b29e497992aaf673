/**
 * The one place webview code touches @vscode/webview-ui-toolkit (archived upstream): swapping the
 * component library means changing this file and the tag names it exports.
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDataGrid, vsCodeDataGridCell, vsCodeDataGridRow } from '@vscode/webview-ui-toolkit';

provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDataGrid(), vsCodeDataGridRow(), vsCodeDataGridCell());

export const Tags = {
  button: 'vscode-button',
  grid: 'vscode-data-grid',
  row: 'vscode-data-grid-row',
  cell: 'vscode-data-grid-cell',
} as const;
