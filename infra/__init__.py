"""AWS CDK infrastructure of Memo: `MemoStack` and one construct per capability."""
