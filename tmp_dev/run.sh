. tests/fixtures/device_env.sh
sed -i "s/'gfx950'/'gfx942'/" tests/fixtures/triton/llc/triton_asm.py
OUT=$OUT $PY tests/fixtures/triton/llc/triton_asm.py tmp_dev/r.llir | tail -40
LLVM_IR_ENABLE_DUMP=1 $PY tests/fixtures/triton/llc/triton_asm.py tmp_dev/r.llir > /tmp/d.txt 2>&1
python3 - <<'P'
import re, os
s=open('/tmp/d.txt',errors='replace').read()
parts=re.split(r'(?m)^(?:# )?\*\*\* IR Dump (?:After|Before) (.+?) \*\*\*', s)
out=[]
for i in range(1,len(parts)-1,2):
    name=parts[i]
    if re.search(r'amdgpu-isel|SI Load Store|si-load-store|Machine Common Subexpression|machine-cse|SI Fold Operands|si-fold', name):
        out.append('=== '+name+'\n'+parts[i+1])
open(os.environ['OUT']+'/mir.txt','w').write('\n'.join(out))
print(len(out))
P
