/**
 * The one place webview code touches @vscode/webview-ui-toolkit (archived upstream): swapping the
 * component library means changing this file and the tag names it exports.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeButton,
  vsCodeCheckbox,
  vsCodeDataGrid,
  vsCodeDataGridCell,
  vsCodeDataGridRow,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodePanels,
  vsCodePanelTab,
  vsCodePanelView,
  vsCodeProgressRing,
  vsCodeTextArea,
  vsCodeTextField,
} from '@vscode/webview-ui-toolkit';

provideVSCodeDesignSystem().register(
  vsCodeButton(),
  vsCodeDataGrid(),
  vsCodeDataGridRow(),
  vsCodeDataGridCell(),
  vsCodeBadge(),
  vsCodeCheckbox(),
  vsCodeDivider(),
  vsCodeDropdown(),
  vsCodeOption(),
  vsCodePanels(),
  vsCodePanelTab(),
  vsCodePanelView(),
  vsCodeProgressRing(),
  vsCodeTextArea(),
  vsCodeTextField(),
);

export const Tags = {
  button: 'vscode-button',
  grid: 'vscode-data-grid',
  row: 'vscode-data-grid-row',
  cell: 'vscode-data-grid-cell',
  badge: 'vscode-badge',
  checkbox: 'vscode-checkbox',
  divider: 'vscode-divider',
  dropdown: 'vscode-dropdown',
  option: 'vscode-option',
  panels: 'vscode-panels',
  panelTab: 'vscode-panel-tab',
  panelView: 'vscode-panel-view',
  progressRing: 'vscode-progress-ring',
  textArea: 'vscode-text-area',
  textField: 'vscode-text-field',
} as const;

/** The value of a toolkit text field, text area or dropdown (they expose it as a property, like native inputs). */
export function valueOf(element: Element): string {
  return String((element as HTMLInputElement).value ?? '');
}

export function setValue(element: Element, value: string): void {
  (element as HTMLInputElement).value = value;
}

export function isChecked(element: Element): boolean {
  return (element as HTMLInputElement).checked === true;
}
