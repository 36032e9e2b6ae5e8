# HPL's input file for the real-HPL scripts (sourced by run_real_hpl.sh and
# concurrent_1x1.sh, which must run the same algorithm lines).
# Writes HPL's input (HPL.dat layout, also the first 32 lines of hpccinf.txt).
write_hpl_dat() { # file n nb p q
  cat > "$1" <<DAT
HPLinpack benchmark input file (written by hplsim scripts/real-hpl)
hplsim real-HPL comparison
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
$2           Ns
1            # of NBs
$3           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
$4           Ps
$5           Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
2            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
DAT
}
