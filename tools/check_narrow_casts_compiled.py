"""Runs Cast through the compiled code (JIT and AOT) over every float8/float4 code and every
f16 value (and ±1e30, ±Inf), with and without saturation, and compares with ml_dtypes,
byte for byte; prints one line per format, direction and mode.

    cd $(mktemp -d) && /path/.venv/bin/python tools/check_narrow_casts_compiled.py path/to/onnx-mlc
"""
import onnx, numpy as np, ml_dtypes as md, sys, subprocess, os
from onnx import helper, TensorProto as T, numpy_helper
F = {'F8E4M3FN':(T.FLOAT8E4M3FN,md.float8_e4m3fn),'F8E4M3FNUZ':(T.FLOAT8E4M3FNUZ,md.float8_e4m3fnuz),
     'F8E5M2':(T.FLOAT8E5M2,md.float8_e5m2),'F8E5M2FNUZ':(T.FLOAT8E5M2FNUZ,md.float8_e5m2fnuz),'F4E2M1':(T.FLOAT4E2M1,md.float4_e2m1fn)}
BIN=sys.argv[1]
def run(name, graph, inp, extra=[]):
    m=helper.make_model(graph,opset_imports=[helper.make_opsetid('',23)]); onnx.save(m,name+'.onnx')
    open(name+'.pb','wb').write(inp.SerializeToString())
    r=subprocess.run([BIN,'run',*extra,'--out','o_'+name,name+'.onnx',name+'.pb'],capture_output=True,text=True)
    if r.returncode: print(name,'FAILED',r.stderr[:200]); return None
    return numpy_helper.to_array(onnx.load_tensor('o_'+name+'/output_0.pb'))
for mode in [[],['--aot']]:
  for k,(code,dt) in F.items():
    n=16 if k=='F4E2M1' else 256
    codes=np.arange(n,dtype=np.uint8)
    t=helper.make_tensor('x',code,[n],codes.tobytes() if n==256 else bytes([(codes[i]|(codes[i+1]<<4)) for i in range(0,16,2)]),raw=True)
    g=helper.make_graph([helper.make_node('Cast',['x'],['y'],to=T.FLOAT)],'g',[helper.make_tensor_value_info('x',code,[n])],[helper.make_tensor_value_info('y',T.FLOAT,[n])])
    got=run('dec_'+k,g,t,mode)
    ref=codes.view(dt).astype(np.float32) if n==256 else np.array([np.array([c],np.uint8).view(dt)[0] for c in codes]).astype(np.float32)
    if got is not None:
        ok=np.array_equal(got.view(np.uint32)[~np.isnan(ref)], ref.view(np.uint32)[~np.isnan(ref)]) and np.array_equal(np.isnan(got),np.isnan(ref))
        print(mode,k,'decode all codes', 'OK' if ok else 'BAD')
    xs=np.concatenate([np.arange(65536,dtype=np.uint16).view(np.float16).astype(np.float32),np.array([1e30,-1e30,np.inf,-np.inf],np.float32)])
    for sat in ([1,0] if n==256 else [1]):
        g=helper.make_graph([helper.make_node('Cast',['x'],['y'],to=code,saturate=sat)],'g',[helper.make_tensor_value_info('x',T.FLOAT,[len(xs)])],[helper.make_tensor_value_info('y',code,[len(xs)])])
        got=run(f'enc_{k}_{sat}',g,numpy_helper.from_array(xs,'x'),mode)
        if got is None: continue
        if n==256:
            refb=(numpy_helper.saturate_cast(xs,dt) if sat else xs.astype(dt)).view(np.uint8); gotb=got.view(np.uint8)
        else:
            refb=xs.astype(dt).view(np.uint8)&0xf; gotb=np.array(got).astype(np.float32).astype(dt).view(np.uint8)&0xf
        print(mode,k,'encode f16 values sat',sat,'mismatches',int(np.sum(refb!=gotb)))
