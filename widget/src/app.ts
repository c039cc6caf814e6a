// The widget app chunk: replaced by the customer widget issue.
export {};
